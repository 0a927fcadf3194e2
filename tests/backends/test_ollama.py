"""The Ollama backend with the real ``ollama`` client over real HTTP on loopback, against a server that
speaks Ollama's API and replays recorded NDJSON streams (see ``_fake_ollama.py`` and ``fixtures/ollama``)."""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import anyio.to_thread
import pytest

from shim.backends import GenerationOptions, get_backend
from shim.backends.base import NativeCall, Reasoning
from shim.backends.ollama import OllamaBackend
from shim.errors import BackendConnectionError, BackendResponseError, ConfigError, StreamInterruptedError
from shim.ids import is_call_id
from shim.types import Message, ToolSpec

from ._fake_ollama import ENDLESS, FakeModel, FakeOllama
from ._serving import free_port, serve

pytestmark = pytest.mark.anyio

ASK = [
    Message(role="system", content="You can call tools."),
    Message(role="user", content="What time is it?"),
]
GET_TIME = ToolSpec(
    name="get_time",
    description="Current time in a timezone.",
    input_schema={"type": "object", "properties": {"timezone": {"type": "string"}}},
)


@pytest.fixture
def fake() -> Iterator[tuple[FakeOllama, str]]:
    server = FakeOllama(
        {
            "qwen2.5:7b": FakeModel(chat="qwen2.5-7b-prompt-call.ndjson"),
            "llama3.1:8b": FakeModel(chat="llama3.1-8b-native-tool-call.ndjson"),
            "qwen3:4b": FakeModel(chat="qwen3-4b-thinking.ndjson", capabilities=["completion", "thinking"]),
            "phi3:mini": FakeModel(chat="phi3-mini-length.ndjson", capabilities=["completion"]),
            "broken:7b": FakeModel(chat="qwen2.5-7b-error-mid-stream.ndjson"),
            "dropped:7b": FakeModel(chat="qwen2.5-7b-connection-drop.ndjson"),
            "old:7b": FakeModel(chat="qwen2.5-7b-prompt-call.ndjson", capabilities=None),
            "stale:7b": FakeModel(chat="qwen2.5-7b-prompt-call.ndjson", refuses_tools=True),
            "llama3.2:1b": FakeModel(chat=ENDLESS),
        }
    )
    with serve(server.app) as url:
        yield server, url


async def test_prompt_mode_text_streams_as_ollama_sent_it(fake: tuple[FakeOllama, str]) -> None:
    server, url = fake
    backend = get_backend(f"ollama:qwen2.5:7b@{url}")
    with anyio.fail_after(10):
        stream = backend.stream(ASK)
        chunks = [chunk async for chunk in stream]
        await backend.aclose()
    assert chunks[3:6] == ["<", "function", "_call>"]
    assert "".join(chunks) == (
        'Let me check.\n<function_call>{"name": "get_time", "arguments": {"timezone": "Europe/Paris"}}</function_call>'
    )
    assert stream.result is not None
    assert stream.result.finish_reason == "stop"
    assert stream.result.usage is not None
    assert (stream.result.usage.prompt_tokens, stream.result.usage.completion_tokens) == (212, 31)
    assert stream.result.tool_calls == ()
    path, body = server.requests[-1]
    assert path == "/api/chat"
    assert body["model"] == "qwen2.5:7b"
    assert body["messages"] == [m.to_dict() for m in ASK]
    assert body["stream"] is True


async def test_sampling_options_and_passthrough_fields_reach_ollama(fake: tuple[FakeOllama, str]) -> None:
    server, url = fake
    backend = OllamaBackend("qwen2.5:7b", host=url, keep_alive="10m", options={"num_ctx": 8192, "top_k": 20})
    options = GenerationOptions(
        temperature=0.1,
        max_tokens=64,
        stop=("</function_call>",),
        seed=7,
        extra={"think": False, "options": {"top_k": 5}},
    )
    with anyio.fail_after(10):
        await backend.stream(ASK, options=options).collect()
        await backend.aclose()
    body = server.requests[-1][1]
    assert body["options"] == {
        "num_ctx": 8192,
        "top_k": 5,
        "temperature": 0.1,
        "num_predict": 64,
        "seed": 7,
        "stop": ["</function_call>"],
    }
    assert body["keep_alive"] == "10m"
    assert body["think"] is False
    assert not body.get("tools")


async def test_native_mode_yields_ollama_s_parsed_calls_as_typed_items_and_in_the_final_record(
    fake: tuple[FakeOllama, str],
) -> None:
    server, url = fake
    backend = OllamaBackend("llama3.1:8b", host=url, tool_mode="native")
    with anyio.fail_after(10):
        stream = backend.stream(ASK, options=GenerationOptions(tools=(GET_TIME,)))
        items = [item async for item in stream]
        await backend.aclose()
    assert stream.result is not None
    [call] = stream.result.tool_calls
    assert items == [NativeCall(call, '{"name": "get_time", "arguments": {"timezone": "UTC"}}')]
    assert (call.name, call.arguments) == ("get_time", {"timezone": "UTC"})
    assert is_call_id(call.id)
    assert server.requests[-1][1]["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_time",
                "description": "Current time in a timezone.",
                "parameters": GET_TIME.input_schema,
            },
        }
    ]


async def test_auto_mode_asks_api_show_once_for_the_tools_capability(fake: tuple[FakeOllama, str]) -> None:
    server, url = fake
    native = OllamaBackend("llama3.1:8b", host=url)
    prompt = OllamaBackend("phi3:mini", host=url)
    old = OllamaBackend("old:7b", host=url)  # an Ollama that does not report capabilities
    with anyio.fail_after(10):
        assert await native.resolve_tool_mode() == "native"
        assert await native.resolve_tool_mode() == "native"
        assert await prompt.resolve_tool_mode() == "prompt"
        assert await old.resolve_tool_mode() == "prompt"
        for backend in (native, prompt, old):
            await backend.aclose()
    assert [path for path, _ in server.requests] == ["/api/show"] * 3


async def test_auto_mode_sends_no_tools_to_a_model_without_the_capability(
    fake: tuple[FakeOllama, str],
) -> None:
    server, url = fake
    backend = OllamaBackend("phi3:mini", host=url)
    with anyio.fail_after(10):
        await backend.stream(ASK, options=GenerationOptions(tools=(GET_TIME,))).collect()
        await backend.aclose()
    assert not server.requests[-1][1].get("tools")


async def test_a_does_not_support_tools_answer_switches_auto_mode_to_prompt(
    fake: tuple[FakeOllama, str],
) -> None:
    _, url = fake
    backend = OllamaBackend("stale:7b", host=url)  # /api/show lists tools, /api/chat refuses them
    with anyio.fail_after(10):
        assert await backend.resolve_tool_mode() == "native"
        with pytest.raises(BackendResponseError, match="does not support native tool calling") as caught:
            await backend.stream(ASK, options=GenerationOptions(tools=(GET_TIME,))).collect()
        assert await backend.resolve_tool_mode() == "prompt"
        result = await backend.stream(ASK, options=GenerationOptions(tools=(GET_TIME,))).collect()
        await backend.aclose()
    assert caught.value.status_code == 400
    assert result.text.endswith("</function_call>")


async def test_thinking_is_streamed_as_reasoning_items_not_as_text(fake: tuple[FakeOllama, str]) -> None:
    server, url = fake
    backend = OllamaBackend("qwen3:4b", host=url, think=True)
    with anyio.fail_after(10):
        stream = backend.stream(ASK)
        items = [item async for item in stream]
        await backend.aclose()
    reasoning = "".join(i.text for i in items if isinstance(i, Reasoning))
    assert (reasoning, stream.text) == ("The user wants the time.", "It is noon.")
    assert isinstance(items[0], Reasoning) and isinstance(items[-1], str)
    assert server.requests[-1][1]["think"] is True


async def test_a_length_finish_is_reported(fake: tuple[FakeOllama, str]) -> None:
    _, url = fake
    backend = OllamaBackend("phi3:mini", host=url)
    with anyio.fail_after(10):
        result = await backend.stream(ASK, options=GenerationOptions(max_tokens=3)).collect()
        await backend.aclose()
    assert result.finish_reason == "length"
    assert result.text == "Once upon a"


async def test_an_unknown_model_error_lists_the_models_the_server_has(fake: tuple[FakeOllama, str]) -> None:
    _, url = fake
    backend = get_backend(f"ollama:qwen9:70b@{url}")
    with anyio.fail_after(10), pytest.raises(BackendResponseError) as caught:
        await backend.stream(ASK).collect()
    await backend.aclose()
    message = str(caught.value)
    assert "has no model 'qwen9:70b'" in message
    assert "'llama3.1:8b'" in message and "'qwen2.5:7b'" in message
    assert "ollama pull qwen9:70b" in message
    assert caught.value.status_code == 404


async def test_an_unreachable_server_names_the_url_and_how_to_start_ollama() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    backend = get_backend(f"ollama:qwen2.5:7b@{url}")
    with anyio.fail_after(10), pytest.raises(BackendConnectionError) as caught:
        await backend.stream(ASK).collect()
    await backend.aclose()
    assert url in str(caught.value)
    assert "ollama serve" in str(caught.value)


async def test_an_error_line_mid_stream_keeps_the_text_received(fake: tuple[FakeOllama, str]) -> None:
    _, url = fake
    backend = OllamaBackend("broken:7b", host=url)
    received: list[str] = []
    with anyio.fail_after(10), pytest.raises(StreamInterruptedError, match="unexpected EOF") as caught:
        async for chunk in backend.stream(ASK):
            received.append(chunk)
    await backend.aclose()
    assert received == ["The time", " is"]
    assert caught.value.text == "The time is"


async def test_a_connection_dropped_mid_stream_ends_with_an_error_keeping_the_text(
    fake: tuple[FakeOllama, str],
) -> None:
    _, url = fake
    backend = OllamaBackend("dropped:7b", host=url)
    stream = backend.stream(ASK)
    with anyio.fail_after(10), pytest.raises(StreamInterruptedError, match="broke") as caught:
        await stream.collect()
    await backend.aclose()
    assert caught.value.text == '<function_call>{"name": "get_'
    assert stream.text == caught.value.text
    assert stream.result is None


async def test_closing_the_stream_disconnects_so_ollama_stops_generating(
    fake: tuple[FakeOllama, str],
) -> None:
    server, url = fake
    backend = OllamaBackend("llama3.2:1b", host=url)
    with anyio.fail_after(10):
        async with backend.stream(ASK) as stream:
            async for _ in stream:
                if len(stream.text) == 3:
                    break
        # Bounded wait for the server thread to see the disconnect; returns as soon as it does.
        went_away = await anyio.to_thread.run_sync(server.client_went_away.wait, 5)
        await backend.aclose()
    assert went_away
    assert stream.result is not None and stream.result.finish_reason == "cancelled"
    assert stream.result.text == "aaa"


async def test_a_grammar_is_refused_with_a_pointer_to_backends_that_take_one(
    fake: tuple[FakeOllama, str],
) -> None:
    _, url = fake
    backend = OllamaBackend("qwen2.5:7b", host=url)
    with anyio.fail_after(10), pytest.raises(ConfigError, match="GBNF"):
        await backend.stream(ASK, options=GenerationOptions(grammar='root ::= "x"')).collect()
    await backend.aclose()


@pytest.mark.parametrize(
    ("ollama_host", "expected"),
    [
        ("gpu-box", "http://gpu-box:11434"),
        ("gpu-box:8080", "http://gpu-box:8080"),
        ("0.0.0.0", "http://127.0.0.1:11434"),
        ("https://ollama.example.com", "https://ollama.example.com:443"),
    ],
)
def test_the_host_comes_from_ollama_host_as_ollama_reads_it(
    monkeypatch: pytest.MonkeyPatch, ollama_host: str, expected: str
) -> None:
    monkeypatch.setenv("OLLAMA_HOST", ollama_host)
    backend = get_backend("ollama:qwen2.5:7b")
    assert isinstance(backend, OllamaBackend)
    assert backend.url == expected


def test_the_spec_s_url_wins_over_ollama_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "elsewhere:1")
    backend = get_backend("ollama:qwen2.5:7b@http://127.0.0.1:9999")
    assert isinstance(backend, OllamaBackend)
    assert backend.name == "ollama:qwen2.5:7b@http://127.0.0.1:9999"
