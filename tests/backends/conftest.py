"""Fixtures for the backend tests: a tiny real GGUF model, and llama-cpp-python's server serving it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shim.backends.tiny_gguf import build_tiny_gguf
from ._serving import serve


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 0.5 MB random-weight llama model; steer it with a grammar for meaningful output."""
    return build_tiny_gguf(tmp_path_factory.mktemp("models") / "tiny.gguf")


@pytest.fixture(scope="session")
def llama_cpp_server(tiny_gguf: Path) -> Iterator[str]:
    """llama-cpp-python's own OpenAI-compatible server (``llama_cpp.server``) on loopback; yields ``.../v1``."""
    from llama_cpp.server.app import create_app
    from llama_cpp.server.settings import ModelSettings, ServerSettings

    app = create_app(
        server_settings=ServerSettings(),
        model_settings=[ModelSettings(model=str(tiny_gguf), model_alias="tiny", n_ctx=4096, verbose=False)],
    )
    with serve(app) as url:
        yield url + "/v1"
