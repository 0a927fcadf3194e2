"""Shared test configuration: the ``live`` marker (skipped unless ``--live``) and anyio on asyncio."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# The default run is thorough but quick; HYPOTHESIS_PROFILE=deep searches much longer (run it by hand).
settings.register_profile("default", max_examples=300)
settings.register_profile("deep", max_examples=20_000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--live", action="store_true", help="run tests that need a large model or remote server")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--live"):
        return
    skip = pytest.mark.skip(reason="needs --live (a real large model or remote server)")
    for item in items:
        if "live" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
