"""A tiny real model, for llama.cpp's own grammar parser (it needs a vocabulary)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from shim.backends.llamacpp import LlamaCppBackend
from shim.backends.tiny_gguf import build_tiny_gguf


@pytest.fixture(scope="session")
def tiny_llm(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path: Path = build_tiny_gguf(tmp_path_factory.mktemp("models") / "tiny.gguf")
    return anyio.run(LlamaCppBackend(path).model)
