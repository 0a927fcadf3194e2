"""get_backend's spec parsing, the public names, and BackendStream's contract."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path

import anyio
import pytest

import shim.backends
from shim.backends import Backend, BackendStream, Completion, get_backend
from shim.backends.ollama import OllamaBackend
from shim.backends.openai_compat import OpenAICompatBackend
from shim.backends.replay import ReplayBackend
from shim.errors import BackendConnectionError, BackendError, ConfigError, StreamInterruptedError

pytestmark = pytest.mark.anyio


def test_the_public_names_are_exactly_these() -> None:
    assert sorted(shim.backends.__all__) == [
        "BACKEND_KINDS",
        "Backend",
        "BackendStream",
        "Completion",
        "FinishReason",
        "GenerationOptions",
        "Usage",
        "get_backend",
    ]


def test_an_ollama_spec_splits_on_the_first_colon_only() -> None:
    backend = get_backend("ollama:qwen2.5:7b-instruct-q4_K_M@http://127.0.0.1:11434")
    assert isinstance(backend, OllamaBackend)
    assert backend.name == "ollama:qwen2.5:7b-instruct-q4_K_M@http://127.0.0.1:11434"


def test_an_openai_spec_takes_the_model_and_the_url() -> None:
    backend = get_backend("openai:org/model:v2@127.0.0.1:8000/v1")
    assert isinstance(backend, OpenAICompatBackend)
    assert backend.name == "openai:org/model:v2@http://127.0.0.1:8000/v1"
    raw = get_backend("openai-completions:base@http://127.0.0.1:8000/v1")
    assert raw.name == "openai-completions:base@http://127.0.0.1:8000/v1"


def test_every_backend_satisfies_the_protocol(tmp_path: Path) -> None:
    reply = tmp_path / "r.txt"
    reply.write_text("hi", encoding="utf-8")
    for spec in ("ollama:m", "openai:m@http://127.0.0.1:1/v1", f"replay:{reply}"):
        assert isinstance(get_backend(spec), Backend)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-4o", r"backend spec 'gpt-4o' names no known engine; use 'ollama:MODEL\[@URL\]'"),
        ("vllm:model", r"names no known engine"),
        ("ollama:", r"is missing what follows 'ollama:'"),
        ("ollama:@http://127.0.0.1:1", r"has an empty model"),
    ],
)
def test_a_bad_spec_says_which_forms_exist(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        get_backend(spec)


def test_settings_go_to_the_backend_constructor(tmp_path: Path) -> None:
    reply = tmp_path / "r.txt"
    reply.write_text("abcd", encoding="utf-8")
    assert isinstance(get_backend(f"replay:{reply}", chunk_size=1), ReplayBackend)
    with pytest.raises(ConfigError, match="tool_mode must be"):
        get_backend("ollama:m", tool_mode="sometimes")


def _stream(*items: str | Completion | Exception) -> BackendStream:
    async def source() -> AsyncGenerator[str | Completion, None]:
        for item in items:
            if isinstance(item, Exception):
                raise item
            yield item

    return BackendStream(source(), description="test engine")


async def test_empty_chunks_are_skipped_and_the_result_holds_the_whole_text() -> None:
    stream = _stream("a", "", "b", Completion(finish_reason="length", text=""))
    with anyio.fail_after(5):
        assert [c async for c in stream] == ["a", "b"]
        assert [c async for c in stream] == []  # exhausted stays exhausted
    assert stream.result == Completion(finish_reason="length", text="ab")


async def test_an_error_before_any_text_passes_through_unchanged() -> None:
    stream = _stream(BackendConnectionError("down"))
    with anyio.fail_after(5), pytest.raises(BackendConnectionError, match=r"^down$"):
        await stream.collect()


async def test_an_error_after_some_text_becomes_stream_interrupted_with_that_text() -> None:
    stream = _stream("partial ", "answer", BackendConnectionError("reset by peer"))
    with anyio.fail_after(5), pytest.raises(StreamInterruptedError) as caught:
        await stream.collect()
    assert caught.value.text == "partial answer"
    assert "test engine failed after 14 characters of output: reset by peer" in str(caught.value)
    assert isinstance(caught.value.__cause__, BackendConnectionError)


async def test_a_source_that_ends_without_a_final_record_is_a_backend_bug() -> None:
    with anyio.fail_after(5), pytest.raises(BackendError, match="ended without a final record"):
        await _stream("x").collect()
