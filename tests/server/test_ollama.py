"""The Ollama-compatible surface driven by the real ``ollama`` client over real HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import httpx
import pytest
from ollama import AsyncClient

from shim.backends.ollama import OllamaBackend
from shim.server import create_app
from shim.server.wire import validate
from shim.server.wire.ollama import OllamaChatRequest, chat_request, engine_options
from tests.server._helpers import WEATHER, Recording, call_block, replay, replay_file, serving

pytestmark = pytest.mark.anyio


async def test_chat_with_tools_returns_calls_with_object_arguments_and_takes_results_by_tool_name(
    tmp_path: Path,
) -> None:
    model = Recording(replay(tmp_path, call_block("get_weather", city="Bergen"), "Rainy, as usual in Bergen."))
    async with serving(create_app({"m": model})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            messages: list[Any] = [{"role": "user", "content": "Weather in Bergen?"}]
            first = await ollama.chat(model="m", messages=messages, tools=[WEATHER])
            calls = first.message.tool_calls or []
            assert [(c.function.name, dict(c.function.arguments)) for c in calls] == [
                ("get_weather", {"city": "Bergen"})
            ]
            assert first.done and first.done_reason == "stop"
            messages += [first.message, {"role": "tool", "tool_name": "get_weather", "content": "rain, 9 C"}]
            second = await ollama.chat(model="m", messages=messages, tools=[WEATHER])
    assert second.message.content == "Rainy, as usual in Bergen." and not second.message.tool_calls
    result_turn = model.prompts[1][-1].content
    assert '<function_result name="get_weather"' in result_turn and "rain, 9 C" in result_turn


async def test_streaming_chat_sends_text_thinking_and_calls_then_done_exactly_once(tmp_path: Path) -> None:
    turn = "<think>A tool will know.</think>Looking it up. " + call_block("get_weather", city="Turku")
    async with serving(create_app({"m": replay(tmp_path, turn)})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            parts = [
                part
                async for part in await ollama.chat(
                    model="m", messages=[{"role": "user", "content": "?"}], tools=[WEATHER], stream=True
                )
            ]
    assert [p.done for p in parts].count(True) == 1 and parts[-1].done
    assert "".join(p.message.thinking or "" for p in parts) == "A tool will know."
    assert "".join(p.message.content or "" for p in parts) == "Looking it up."
    calls = [c for p in parts for c in p.message.tool_calls or []]
    assert [(c.function.name, dict(c.function.arguments)) for c in calls] == [("get_weather", {"city": "Turku"})]


async def test_tags_show_and_version_describe_the_models_with_the_tools_capability(tmp_path: Path) -> None:
    async with serving(create_app({"qwen": replay(tmp_path, "a")})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            tags = await ollama.list()
            shown = await ollama.show("qwen")
            shown_latest = await ollama.show("qwen:latest")
            version = await ollama._request_raw("GET", "/api/version")  # the client has no wrapper for it
    assert [m.model for m in tags.models] == ["qwen"]
    assert "tools" in (shown.capabilities or []) and shown_latest.capabilities == shown.capabilities
    assert version.json()["version"]


async def test_generate_answers_a_prompt_with_its_system_message_streamed_and_whole(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "Hello there.", "Hello again."))
    async with serving(create_app({"m": model})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            whole = await ollama.generate(model="m", prompt="Say hello", system="You are terse.")
            parts = [part async for part in await ollama.generate(model="m", prompt="Again", stream=True)]
    assert whole.response == "Hello there." and whole.done and whole.done_reason == "stop"
    assert "".join(p.response for p in parts) == "Hello again." and [p.done for p in parts][-1] is True
    assert model.prompts[0][0].content.startswith("You are terse.") and model.prompts[0][-1].content == "Say hello"


async def test_generate_refuses_bad_images_and_raw_prompts_clearly_and_answers_a_json_format(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, '{"greeting": "hi"}')})) as url, httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            images = await http.post(f"{url}/api/generate", json={"model": "m", "prompt": "x", "images": ["iVB"]})
            raw = await http.post(f"{url}/api/generate", json={"model": "m", "prompt": "x", "raw": True})
            body = {"model": "m", "prompt": "x", "format": "json", "stream": False}
            fmt = await http.post(f"{url}/api/generate", json=body)
    assert images.status_code == 400 and "'images[0]'" in images.json()["error"]  # not base64
    assert raw.status_code == 400 and "'raw'" in raw.json()["error"]
    # Structured output (shim.constrain.structured): the replay engine has no mechanism, so the prompt method.
    assert fmt.status_code == 200 and json.loads(fmt.json()["response"]) == {"greeting": "hi"}
    assert fmt.headers["x-shim-structured-output"] == "prompt"


async def test_ps_lists_the_models_and_show_names_the_alias_never_the_spec(tmp_path: Path) -> None:
    spec = f"replay:{replay_file(tmp_path, 'a')}"
    async with serving(create_app({"qwen": spec})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            running = await ollama.ps()
            shown = await ollama.show("qwen")
            listed = await ollama.list()
    assert [m.model for m in running.models] == ["qwen"]
    everything = shown.model_dump_json() + listed.model_dump_json() + running.model_dump_json()
    assert str(tmp_path) not in everything and "replay:" not in everything


async def test_think_false_hides_reasoning_and_sampling_options_reach_the_backend(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "<think>hidden</think>Visible."))
    async with serving(create_app({"m": model})) as url, AsyncClient(host=url) as ollama:
        with anyio.fail_after(10):
            answer = await ollama.chat(
                model="m",
                messages=[{"role": "user", "content": "x"}],
                think=False,
                keep_alive="5m",
                options={"temperature": 0.3, "top_p": 0.7, "num_predict": 9, "seed": 4, "stop": ["END"], "top_k": 5},
            )
    assert answer.message.content == "Visible." and not answer.message.thinking
    options = model.options[0]
    assert options is not None
    assert (options.temperature, options.top_p, options.max_tokens, options.seed, options.stop) == (
        0.3,
        0.7,
        9,
        4,
        ("END",),
    )
    assert dict(options.extra) == {}  # think, keep_alive, top_k: for Ollama engines only


def test_think_keep_alive_and_model_options_go_to_an_ollama_engine_as_they_are() -> None:
    body = validate(
        OllamaChatRequest,
        {
            "model": "m",
            "messages": [{"role": "user", "content": "x"}],
            "think": "high",
            "keep_alive": 0,
            "options": {"top_k": 5, "num_ctx": 8192, "temperature": 0.1},
        },
    )
    chat, _, extras = chat_request(body)
    options = engine_options(chat.options, extras, OllamaBackend("qwen"))
    assert dict(options.extra) == {"think": "high", "keep_alive": 0, "options": {"top_k": 5, "num_ctx": 8192}}
    assert options.temperature == 0.1


# LiteLLM's own types trip a pydantic warning on some release pairs (a TypedDict item marked ReadOnly); it
# is theirs, not ours, and turned into an error by filterwarnings=error it would fail the client's call.
@pytest.mark.filterwarnings("ignore:Items? .* (is|are) using the `ReadOnly` qualifier:UserWarning")
async def test_litellm_ollama_provider_gets_an_answer_from_generate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no network: use the bundled model map
    litellm = pytest.importorskip("litellm")
    model = Recording(replay(tmp_path, "Hi from shim.", "Streamed hi."))
    question = [{"role": "user", "content": "hello"}]

    def ask(url: str) -> tuple[str, str]:
        # In a thread: LiteLLM's success logging calls /api/show with a blocking client, which would stall
        # the server sharing this test's event loop.
        answer: Any = litellm.completion(model="ollama/m", api_base=url, messages=question)
        stream: Any = litellm.completion(model="ollama/m", api_base=url, messages=question, stream=True)
        return answer.choices[0].message.content, "".join(c.choices[0].delta.content or "" for c in stream)

    async with serving(create_app({"m": model})) as url:
        with anyio.fail_after(60):
            whole, streamed = await anyio.to_thread.run_sync(ask, url)
    assert whole == "Hi from shim." and streamed == "Streamed hi."
    assert "hello" in model.prompts[0][-1].content  # LiteLLM's own "### User:" prompt, sent to /api/generate
