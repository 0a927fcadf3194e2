"""Backends against real servers this machine does not have; run with ``pytest --live``.

- ``SHIM_LIVE_OLLAMA_MODEL`` (default ``qwen2.5:0.5b``) on the Ollama at ``OLLAMA_HOST``;
- ``SHIM_LIVE_OPENAI_SPEC``, e.g. ``openai:Qwen/Qwen2.5-7B-Instruct@http://127.0.0.1:8000/v1``.
"""

from __future__ import annotations

import os

import anyio
import pytest

from shim.backends import GenerationOptions, get_backend
from shim.backends.ollama import OllamaBackend
from shim.types import Message

pytestmark = [pytest.mark.anyio, pytest.mark.live]

ASK = [Message(role="user", content="Reply with one short sentence.")]


async def test_a_real_ollama_streams_a_reply_with_token_counts() -> None:
    backend = OllamaBackend(os.environ.get("SHIM_LIVE_OLLAMA_MODEL", "qwen2.5:0.5b"))
    with anyio.fail_after(300):
        mode = await backend.resolve_tool_mode()
        result = await backend.stream(ASK, options=GenerationOptions(max_tokens=32, temperature=0)).collect()
        await backend.aclose()
    assert mode in ("native", "prompt")
    assert result.text.strip()
    assert result.usage is not None and result.usage.completion_tokens


async def test_a_real_openai_compatible_server_streams_a_reply() -> None:
    spec = os.environ.get("SHIM_LIVE_OPENAI_SPEC")
    if not spec:
        pytest.fail("set SHIM_LIVE_OPENAI_SPEC to an openai:MODEL@URL spec to run this test")
    backend = get_backend(spec)
    with anyio.fail_after(300):
        result = await backend.stream(ASK, options=GenerationOptions(max_tokens=32, temperature=0)).collect()
        await backend.aclose()
    assert result.text.strip()
    assert result.finish_reason in ("stop", "length")
