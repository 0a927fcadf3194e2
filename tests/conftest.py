"""Shared test configuration: the ``live`` marker (skipped unless ``--live``), anyio on asyncio, Hypothesis
profiles, and the node MCP servers installed (``npm ci``) before the first test that starts one."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

# The default run is thorough but quick, and the same on every run and machine (derandomized: a landing never
# fails on an example no earlier run drew); HYPOTHESIS_PROFILE=deep searches much longer, at random (run it by hand:
# what it finds becomes a test). No deadline and no too-slow check: on a busy machine one example may take a second,
# and that is the machine, not the code (pytest-timeout is the hang guard).
_PATIENT = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("default", max_examples=300, derandomize=True, **_PATIENT)
settings.register_profile("deep", max_examples=20_000, **_PATIENT)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--live", action="store_true", help="run tests that need a large model or remote server")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Run ``npm ci`` once, before the tests, when a collected test module starts server-everything and
    ``node_modules`` is absent (a fresh clone): the README's ``pytest`` is then the whole setup."""
    servers = sys.modules.get("mcp_servers")
    if servers is None or session.config.option.collectonly or not servers.node_servers_missing():
        return
    terminal = session.config.pluginmanager.get_plugin("terminalreporter")
    say = terminal.write_line if terminal is not None else print
    say("node_modules is missing: running 'npm ci --no-audit --no-fund --prefer-offline' for the test MCP servers")
    failure = servers.install_node_servers()
    say(failure or "npm ci: done")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Close the two ``/dev/null`` files llama-cpp-python opens at import and never closes, so the run ends at
    its summary line instead of two "Exception ignored ... ResourceWarning" after it."""
    utils = sys.modules.get("llama_cpp._utils")
    for name in ("outnull_file", "errnull_file"):
        file = getattr(utils, name, None)
        if file is not None:
            file.close()


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
