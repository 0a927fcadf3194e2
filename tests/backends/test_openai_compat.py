"""The OpenAI-compatible backend against llama-cpp-python's own server (``llama_cpp.server``) on loopback,
serving the tiny test model, with the real ``openai`` client over real HTTP."""

from __future__ import annotations

import anyio
import pytest

from shim.backends import GenerationOptions, get_backend
from shim.backends.openai_compat import OpenAICompatBackend
from shim.errors import BackendConnectionError, BackendResponseError, ConfigError, StreamInterruptedError
from shim.profiles import get_profile
from shim.types import Message

from . import _fake_openai as fake_openai
from ._serving import free_port, serve

pytestmark = pytest.mark.anyio

CALL = '<function_call>{"name": "get_time", "arguments": {}}</function_call>'
CALL_GRAMMAR = 'root ::= "<function_call>{\\"name\\": \\"get_time\\", \\"arguments\\": {}}</function_call>"'
ASK = [Message(role="user", content="What time is it?")]


async def test_chat_completions_stream_the_text_the_server_generates(llama_cpp_server: str) -> None:
    backend = get_backend(f"openai:tiny@{llama_cpp_server}")
    with anyio.fail_after(30):
        stream = backend.stream(ASK, options=GenerationOptions(grammar=CALL_GRAMMAR, temperature=0))
        chunks = [chunk async for chunk in stream]
        await backend.aclose()
    assert "".join(chunks) == CALL
    assert len(chunks) > 10
    assert stream.result is not None and stream.result.finish_reason == "stop"


async def test_the_raw_completions_api_streams_from_a_plain_transcript(llama_cpp_server: str) -> None:
    backend = get_backend(f"openai-completions:tiny@{llama_cpp_server}")
    with anyio.fail_after(30):
        result = await backend.stream(ASK, options=GenerationOptions(grammar='root ::= "It is noon."')).collect()
        await backend.aclose()
    assert result.text == "It is noon."
    assert result.finish_reason == "stop"


async def test_max_tokens_is_reported_as_finish_reason_length(llama_cpp_server: str) -> None:
    backend = OpenAICompatBackend("tiny", base_url=llama_cpp_server)
    options = GenerationOptions(grammar="root ::= [a-z]{50}", max_tokens=6, seed=1)
    with anyio.fail_after(30):
        result = await backend.stream(ASK, options=options).collect()
        await backend.aclose()
    assert result.finish_reason == "length"
    assert len(result.text) == 6


async def test_stop_sequences_are_sent_to_the_server(llama_cpp_server: str) -> None:
    backend = OpenAICompatBackend("tiny", base_url=llama_cpp_server)
    options = GenerationOptions(grammar='root ::= "abc</function_call>def"', stop=("</function_call>",))
    with anyio.fail_after(30):
        result = await backend.stream(ASK, options=options).collect()
        await backend.aclose()
    assert result.text == "abc"
    assert result.finish_reason == "stop"


async def test_the_transcript_stop_and_the_client_s_two_stops_all_reach_the_server_beside_a_profile_s_stops() -> None:
    """Issue 23 item 3: the 4-stop cap used to drop the transcript's own ``\\nUser:`` stop when a profile's
    stops filled the room after two client stops; now only the family's fallback gives way."""
    llama3 = get_profile("llama3")
    options = llama3.options(GenerationOptions(stop=("END", "STOP")))
    assert isinstance(options, GenerationOptions)
    fake_openai.completions.clear()
    with serve(fake_openai.app) as url:
        backend = get_backend(f"openai-completions:assistant@{url}/v1")
        with anyio.fail_after(10):
            assert (await backend.stream(ASK, options=options).collect()).text == "Done."
        await backend.aclose()
    assert [body["stop"] for body in fake_openai.completions] == [["END", "STOP", "\nUser:", "<|eot_id|>"]]


async def test_closing_the_stream_early_records_cancelled(llama_cpp_server: str) -> None:
    backend = OpenAICompatBackend("tiny", base_url=llama_cpp_server)
    grammar = 'root ::= line{40}\nline ::= "a"{40}'
    with anyio.fail_after(30):
        async with backend.stream(ASK, options=GenerationOptions(grammar=grammar)) as stream:
            async for _ in stream:
                break
        after = await backend.stream(ASK, options=GenerationOptions(grammar='root ::= "ok"')).collect()
        await backend.aclose()
    assert stream.result is not None and stream.result.finish_reason == "cancelled"
    assert stream.result.text == "a"
    assert after.text == "ok"  # the server is ready for the next request


async def test_an_unreachable_server_is_named_with_how_to_start_one() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    backend = get_backend(f"openai:tiny@{url}")
    with anyio.fail_after(30), pytest.raises(BackendConnectionError) as caught:
        await backend.stream(ASK).collect()
    await backend.aclose()
    assert url in str(caught.value)
    assert "llama_cpp.server" in str(caught.value)


def test_a_spec_without_url_needs_openai_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match=r"'openai:gpt-x@http://HOST:PORT/v1'"):
        get_backend("openai:gpt-x")


def test_the_api_key_is_read_from_the_named_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY", "sk-test-123")
    backend = OpenAICompatBackend("m", base_url="http://127.0.0.1:1/v1", api_key_env="MY_KEY")
    assert backend._client.api_key == "sk-test-123"  # pyright: ignore[reportPrivateUsage]


async def test_an_unknown_model_error_lists_the_models_the_server_has() -> None:
    with serve(fake_openai.app) as url:
        backend = get_backend(f"openai:qwen9@{url}/v1")
        with anyio.fail_after(10), pytest.raises(BackendResponseError) as caught:
            await backend.stream(ASK).collect()
        await backend.aclose()
    message = str(caught.value)
    assert "has no model 'qwen9' (The model `qwen9` does not exist.)" in message
    assert "'Qwen/Qwen2.5-7B-Instruct'" in message
    assert caught.value.status_code == 404


async def test_a_connection_dropped_mid_stream_ends_with_an_error_keeping_the_text() -> None:
    with serve(fake_openai.app) as url:
        backend = get_backend(f"openai:dropping-model@{url}/v1")
        stream = backend.stream(ASK)
        with anyio.fail_after(10), pytest.raises(StreamInterruptedError) as caught:
            await stream.collect()
        await backend.aclose()
    assert caught.value.text == '<function_call>{"name": "get_'
    assert stream.result is None


@pytest.mark.parametrize("credentials", ["", "admin:pa55word@"], ids=["key", "url-credentials"])
async def test_an_error_answer_shows_neither_the_urls_credentials_nor_the_key_the_engine_echoed(
    monkeypatch: pytest.MonkeyPatch, credentials: str
) -> None:
    monkeypatch.setenv("LLM_ACCESS", "engine-access-98765")
    with serve(fake_openai.app) as url:
        spec = f"openai:overloaded-model@{url.replace('http://', 'http://' + credentials)}/v1"
        backend = get_backend(spec, api_key_env="LLM_ACCESS")
        with anyio.fail_after(10), pytest.raises(BackendResponseError) as caught:
            await backend.stream(ASK).collect()
        await backend.aclose()
    message = str(caught.value)
    assert (
        caught.value.status_code == 503 and "upstream busy; key " in message and "[REDACTED] is rate-limited" in message
    )
    # httpx sends URL credentials as Basic auth, which the engine echoes instead of the key.
    for secret in ("pa55word", "engine-access-98765", "YWRtaW46cGE1NXdvcmQ"):
        assert secret not in message and secret not in backend.name and secret not in repr(backend)


async def test_an_unreachable_server_is_named_without_the_urls_credentials() -> None:
    url = f"http://someone:pa55word@127.0.0.1:{free_port()}/v1"
    backend = get_backend(f"openai:tiny@{url}")
    with anyio.fail_after(30), pytest.raises(BackendConnectionError) as caught:
        await backend.stream(ASK).collect()
    await backend.aclose()
    assert "pa55word" not in str(caught.value) and "127.0.0.1" in str(caught.value)
