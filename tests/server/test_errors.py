"""Bad requests, auth, CORS and engine failures: the right status and body, in each surface's shape."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import anyio
import httpx
import openai
import pytest
from ollama import AsyncClient, ResponseError

from shim.server import ServerSettings, create_app
from tests.server._helpers import WEATHER, Crashing, replay, serving

pytestmark = pytest.mark.anyio

QUESTION = [{"role": "user", "content": "hi"}]


async def post(url: str, path: str, **kwargs: object) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            return await http.post(f"{url}{path}", **kwargs)  # type: ignore[arg-type]


async def test_malformed_json_is_a_400_in_each_surfaces_error_shape(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url:
        as_json = {"content-type": "application/json"}
        openai_style = await post(url, "/v1/chat/completions", content=b'{"model": "m", "messages": [', headers=as_json)
        ollama_style = await post(url, "/api/chat", content=b"not json", headers=as_json)
    assert openai_style.status_code == 400 and openai_style.json()["error"]["code"] == "invalid_json"
    assert "not valid JSON" in openai_style.json()["error"]["message"]
    assert ollama_style.status_code == 400 and "not valid JSON" in ollama_style.json()["error"]


async def test_an_unknown_model_is_a_404_that_lists_the_models(tmp_path: Path) -> None:
    async with serving(create_app({"qwen": replay(tmp_path, "a"), "tiny": replay(tmp_path, "b")})) as url:
        async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0) as client:
            with pytest.raises(openai.NotFoundError) as caught, anyio.fail_after(10):
                await client.chat.completions.create(model="gpt-4o", messages=QUESTION)  # type: ignore[arg-type]
        async with AsyncClient(host=url) as ollama:
            with pytest.raises(ResponseError) as caught_ollama, anyio.fail_after(10):
                await ollama.chat(model="llama3", messages=QUESTION)
    error = caught.value.body
    assert isinstance(error, dict) and error["code"] == "model_not_found"
    assert "'gpt-4o'" in error["message"] and "'qwen', 'tiny'" in error["message"]
    assert caught_ollama.value.status_code == 404 and "'qwen', 'tiny'" in caught_ollama.value.error


async def test_an_invalid_tools_schema_is_a_400_naming_the_tool(tmp_path: Path) -> None:
    broken = {"type": "function", "function": {"name": "bad", "parameters": {"type": "objekt"}}}
    nameless = {"type": "function", "function": {"description": "no name"}}
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url:
        schema = await post(
            url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "tools": [WEATHER, broken]}
        )
        name = await post(url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "tools": [nameless]})
        ollama = await post(url, "/api/chat", json={"model": "m", "messages": QUESTION, "tools": [broken]})
    assert schema.status_code == 400 and schema.json()["error"]["param"] == "tools[1]"
    assert "not a valid JSON Schema" in schema.json()["error"]["message"]
    assert name.status_code == 400 and name.json()["error"]["param"] == "tools[0].function.name"
    assert ollama.status_code == 400 and "tools[0]" in ollama.json()["error"]


async def test_an_oversized_body_is_a_413(tmp_path: Path) -> None:
    app = create_app({"m": replay(tmp_path, "a")}, settings=ServerSettings(max_body=2048))
    big = {"model": "m", "messages": [{"role": "user", "content": "x" * 5000}]}
    async with serving(app) as url:
        response = await post(url, "/v1/chat/completions", json=big)
    assert response.status_code == 413 and response.json()["error"]["code"] == "request_too_large"


async def test_unsupported_parameters_are_refused_and_harmless_ones_are_reported_as_ignored(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "Hello.")})) as url:
        two = await post(url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "n": 2})
        fine = await post(
            url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "metadata": {"a": "b"}, "user": "me"}
        )
        legacy = await post(url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "functions": []})
    assert two.status_code == 400 and two.json()["error"]["param"] == "n"
    assert legacy.status_code == 400 and "'tools'" in legacy.json()["error"]["message"]
    assert fine.status_code == 200 and fine.headers["x-shim-ignored-params"] == "metadata,user"


async def test_an_api_key_is_required_when_set(tmp_path: Path) -> None:
    app = create_app({"m": replay(tmp_path, "Welcome.")}, settings=ServerSettings(api_key="sesame"))
    async with serving(app) as url:
        async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="wrong", max_retries=0) as client:
            with pytest.raises(openai.AuthenticationError), anyio.fail_after(10):
                await client.models.list()
        missing = await post(url, "/api/chat", json={"model": "m", "messages": QUESTION})
        async with AsyncClient(host=url, headers={"Authorization": "Bearer sesame"}) as ollama:
            with anyio.fail_after(10):
                reply = await ollama.chat(model="m", messages=QUESTION)
    assert missing.status_code == 401 and "Authorization: Bearer" in missing.json()["error"]
    assert reply.message.content == "Welcome."


async def test_cors_is_off_unless_an_origin_is_allowed(tmp_path: Path) -> None:
    preflight = {"Origin": "http://app.example", "Access-Control-Request-Method": "POST"}
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url, httpx.AsyncClient() as http:
        closed = await http.options(f"{url}/v1/chat/completions", headers=preflight)
        plain = await http.get(f"{url}/v1/models", headers={"Origin": "http://app.example"})
    app = create_app(
        {"m": replay(tmp_path, "a")}, settings=ServerSettings(cors_origins=["http://app.example"], api_key="k")
    )
    async with serving(app) as url, httpx.AsyncClient() as http:
        opened = await http.options(f"{url}/v1/chat/completions", headers=preflight)
    assert "access-control-allow-origin" not in closed.headers and "access-control-allow-origin" not in plain.headers
    assert opened.status_code == 200 and opened.headers["access-control-allow-origin"] == "http://app.example"


async def test_an_engine_failure_before_any_output_is_an_error_status(tmp_path: Path) -> None:
    async with serving(create_app({"m": Crashing()})) as url:
        streamed = await post(url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "stream": True})
        ollama = await post(url, "/api/chat", json={"model": "m", "messages": QUESTION})
    assert streamed.status_code == 502 and "crashed (on purpose)" in streamed.json()["error"]["message"]
    assert ollama.status_code == 502 and "crashed (on purpose)" in ollama.json()["error"]


async def test_an_engine_failure_mid_stream_ends_the_stream_with_an_error_the_client_raises(tmp_path: Path) -> None:
    async with serving(create_app({"m": Crashing(before="Here is the start of an answer")})) as url:
        async with openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0) as client:
            seen: list[str] = []
            with pytest.raises(openai.APIError) as caught, anyio.fail_after(10):
                stream = await client.chat.completions.create(model="m", messages=QUESTION, stream=True)  # type: ignore[arg-type]
                async for chunk in stream:
                    seen.append(chunk.choices[0].delta.content or "")
        async with AsyncClient(host=url) as ollama:
            with pytest.raises(ResponseError) as caught_ollama, anyio.fail_after(10):
                async for _ in await ollama.chat(model="m", messages=QUESTION, stream=True):
                    pass
    assert "".join(seen) == "Here is the start of an answer"
    assert "crashed (on purpose)" in caught.value.message
    assert "crashed (on purpose)" in caught_ollama.value.error


async def test_unknown_paths_get_json_errors(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url, httpx.AsyncClient() as http:
        openai_style = await http.get(f"{url}/v1/embeddings")
        ollama_style = await http.post(f"{url}/api/embed", json={})
    assert openai_style.status_code == 404 and "Not Found" in openai_style.json()["error"]["message"]
    assert ollama_style.status_code == 404 and "Not Found" in ollama_style.json()["error"]


async def test_an_engine_that_cannot_be_reached_is_a_503_saying_so(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nothing listens on: bound, then released
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    async with serving(create_app({"m": f"ollama:qwen2.5:7b@http://127.0.0.1:{port}"})) as url:
        response = await post(url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "stream": True})
    assert response.status_code == 503 and "could not be reached" in response.json()["error"]["message"]


async def test_a_reply_cut_by_the_token_limit_ends_with_length_in_both_surfaces(tmp_path: Path) -> None:
    recording = tmp_path / "cut.jsonl"
    recording.write_text(
        json.dumps({"response": "A long story that", "finish_reason": "length"}) + "\n", encoding="utf-8"
    )
    async with serving(create_app({"m": f"replay:{recording}"})) as url:
        openai_style = await post(
            url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "max_tokens": 4}
        )
    async with serving(create_app({"m": f"replay:{recording}"})) as url:  # a fresh replay: the same reply again
        ollama_style = await post(url, "/api/chat", json={"model": "m", "messages": QUESTION, "stream": False})
    assert openai_style.json()["choices"][0]["finish_reason"] == "length"
    assert ollama_style.json()["done_reason"] == "length"


async def test_bad_fields_get_a_400_naming_them_in_each_surfaces_shape(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url:
        openai_style = await post(
            url, "/v1/chat/completions", json={"model": "m", "messages": QUESTION, "stream": "true"}
        )
        nested = await post(
            url,
            "/v1/chat/completions",
            json={"model": "m", "messages": [*QUESTION, {"role": "assistant", "tool_calls": [{"function": 5}]}]},
        )
        ollama_style = await post(url, "/api/chat", json={"model": "m", "messages": QUESTION, "options": []})
        anthropic_style = await post(url, "/v1/messages", json={"model": "m", "messages": QUESTION})
    assert openai_style.status_code == 400 and openai_style.json()["error"]["param"] == "stream"
    assert nested.status_code == 400 and nested.json()["error"]["param"] == "messages[1].tool_calls[0].function"
    assert ollama_style.status_code == 400 and "'options'" in ollama_style.json()["error"]
    assert anthropic_style.status_code == 400
    assert anthropic_style.json() == {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": "'max_tokens': Field required"},
    }
