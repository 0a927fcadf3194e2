"""The server keeps serving whatever a request holds: an optional engine that is missing, a grammar that would
be huge, an answer nested a thousand levels, a Host that only starts like an IP address, settings that would let
any page run tools (issue 25, items 1, 8, 9, 13, 14). Each runs a real server on 127.0.0.1 over real HTTP."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from shim.backends.base import Completion
from shim.constrain.limits import MAX_GRAMMAR_REPEAT, pattern_size
from shim.errors import ConfigError
from shim.server import ServerSettings, create_app
from shim.server.guard import host_allowed
from tests.backends._fake_engines import FakeEngine
from tests.server._helpers import Endless, replay, serving

pytestmark = pytest.mark.anyio

QUESTION = [{"role": "user", "content": "What time is it in Seoul?"}]


def _tool(name: str, **parameter: Any) -> dict[str, Any]:
    properties = {"timezone": {"type": "string", **parameter}}
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": properties}}}


async def post(url: str, path: str, body: Any) -> httpx.Response:
    async with httpx.AsyncClient(timeout=30) as http:
        with anyio.fail_after(30):
            return await http.post(f"{url}{path}", json=body)


@pytest.fixture
def without_llama_cpp(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``llama`` extra is not installed (None in sys.modules makes its import fail)."""
    for name in ("llama_cpp", "llama_cpp.llama_grammar"):
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.usefixtures("without_llama_cpp")
async def test_a_llama_server_upstream_without_the_llama_extra_is_served_unconstrained_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    engine = FakeEngine(owned_by="llamacpp", understands="llama-server")
    async with serving(engine.app()) as upstream:
        app = create_app({"m": f"openai:m@{upstream}/v1"})
        async with serving(app) as url:
            tools = [_tool("get_time_without_llama")]
            answers = [
                await post(url, "/v1/chat/completions", {"model": "m", "messages": QUESTION, "tools": tools}),
                await post(
                    url, "/v1/chat/completions", {"model": "m", "messages": QUESTION, "tools": tools, "stream": True}
                ),
                await post(url, "/v1/messages", {"model": "m", "max_tokens": 50, "messages": QUESTION, "tools": tools}),
                await post(url, "/api/chat", {"model": "m", "messages": QUESTION, "tools": tools, "stream": False}),
            ]
    assert [a.status_code for a in answers] == [200, 200, 200, 200]
    assert all("llama-cpp-python is not installed" in a.headers["x-shim-constrain"] for a in answers)
    assert not any("grammar" in body for body in engine.requests)  # nothing half-built reached the engine
    lines = [r for r in caplog.records if "constrained decoding is off" in r.getMessage()]
    assert len(lines) <= 1  # once for the process (an earlier test may have logged it already)


@pytest.mark.parametrize(
    ("parameter", "field"),
    [
        ({"maxLength": 10**9}, "maxLength"),
        ({"maxLength": 10**7}, "maxLength"),
        ({"pattern": "^a{0,100000000}$"}, "pattern"),
        ({"pattern": "^(a{0,1000}){0,1000}$"}, "pattern"),
    ],
)
async def test_a_schema_whose_grammar_would_be_huge_is_a_400_naming_the_field(
    parameter: dict[str, Any], field: str
) -> None:
    engine = FakeEngine(owned_by="llamacpp", understands="llama-server")
    async with serving(engine.app()) as upstream, serving(create_app({"m": f"openai:m@{upstream}/v1"})) as url:
        with anyio.fail_after(10):  # the converter would take 17 s and gigabytes to write it
            tools = [_tool("get_time_bounded", **parameter)]
            answer = await post(url, "/v1/chat/completions", {"model": "m", "messages": QUESTION, "tools": tools})
    assert answer.status_code == 400
    assert f"properties.timezone.{field}" in answer.json()["error"]["message"]
    assert engine.requests == []


def test_the_size_of_a_pattern_counts_nested_repetitions_and_reads_huge_counts_without_converting_them() -> None:
    assert pattern_size("^[a-z]{1,20}@example\\.com$") < 100
    assert 200 <= pattern_size("^(ab|cd){0,50}$") <= 210  # four characters, fifty times
    assert pattern_size("(a{0,1000}){0,1000}") >= 1_000_000
    assert pattern_size("a{0," + "9" * 5000 + "}") > MAX_GRAMMAR_REPEAT  # int() of 5,000 digits would raise
    assert pattern_size("\\{9999999\\}[{]{0,2}") < 20  # escaped braces are characters


async def test_an_answer_nested_a_thousand_levels_under_a_schema_is_an_answer_not_a_500(tmp_path: Path) -> None:
    deep = "[" * 990 + "]" * 990
    schema = {"type": "array"}
    model = replay(tmp_path, deep, deep, deep, deep, deep, deep)
    async with serving(create_app({"m": model})) as url:
        chat = await post(
            url,
            "/v1/chat/completions",
            {
                "model": "m",
                "messages": QUESTION,
                "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}},
            },
        )
        ollama = await post(url, "/api/chat", {"model": "m", "messages": QUESTION, "format": schema, "stream": False})
    assert chat.status_code == 200 and chat.json()["choices"][0]["message"]["content"] == deep
    assert ollama.status_code == 200 and ollama.json()["message"]["content"] == deep


def test_a_host_that_only_starts_with_an_ip_address_and_port_is_not_this_server() -> None:
    assert not host_allowed("127.0.0.1:8080.evil.example", ())
    assert not host_allowed("[::1]:8080.evil.example", ())
    assert not host_allowed("localhost:80.evil.example", ())
    assert host_allowed("127.0.0.1:8080", ()) and host_allowed("[::1]:8080", ()) and host_allowed("localhost:1", ())


async def test_a_host_with_a_port_that_is_not_a_number_is_refused_over_http(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url, httpx.AsyncClient() as http:
        port = url.rsplit(":", 1)[1]
        with anyio.fail_after(10):
            answer = await http.get(f"{url}/v1/models", headers={"host": f"127.0.0.1:{port}.evil.example"})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "host_not_allowed"


@pytest.mark.parametrize("settings", [{"cors_origins": ("*",)}, {"allowed_hosts": ("*",)}])
def test_any_origin_or_host_without_a_key_is_refused_while_the_server_runs_tools(
    tmp_path: Path, settings: dict[str, Any]
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {}}), encoding="utf-8")
    model = replay(tmp_path, "a")
    with pytest.raises(ConfigError, match="--api-key") as refused:
        create_app({"m": model}, config=config, settings=ServerSettings(**settings))
    assert "--insecure" in str(refused.value) and "'*'" in str(refused.value)
    create_app({"m": model}, config=config, settings=ServerSettings(**settings, api_key="k" * 16))
    create_app({"m": model}, config=config, settings=ServerSettings(**settings, insecure=True))
    create_app({"m": model}, settings=ServerSettings(**settings))  # pass-through mode runs no tools


def test_shim_serve_refuses_to_start_with_any_origin_and_tools_and_says_why(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from shim.cli import main

    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {}}), encoding="utf-8")
    recording = tmp_path / "r.txt"
    recording.write_text("a", encoding="utf-8")
    result = CliRunner().invoke(
        main, ["serve", "-m", f"replay:{recording}", "--config", str(config), "--cors", "*", "--port", "0"]
    )
    assert result.exit_code == 2
    assert "--cors '*' without --api-key" in result.output and "--insecure" in result.output


class Tireless(Endless):
    """A model that, like a replay, never waits between chunks; it stops after ``limit`` of them."""

    name = "tireless"

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.sent = 0

    async def _generate(self) -> AsyncGenerator[str | Completion, None]:
        self.started.set()
        try:
            while self.sent < self.limit:
                self.sent += 1
                yield "more words "
            yield Completion(finish_reason="stop", text="")
        finally:
            self.closed.set()


async def test_a_non_streaming_reply_from_an_engine_that_never_waits_is_cancelled_when_its_client_leaves() -> None:
    model = Tireless(limit=100_000)
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient(timeout=60) as http:
        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                body = {"model": "m", "messages": QUESTION, "stream": False}
                tg.start_soon(lambda: http.post(f"{url}/api/chat", json=body))
                await model.started.wait()
                health = await http.get(f"{url}/health")  # answered while the reply is produced
                tg.cancel_scope.cancel()  # the client leaves
            await model.closed.wait()
    assert health.status_code == 200
    assert model.sent < model.limit  # stopped when the client left, not run to the end for nobody


async def test_unique_large_schemas_are_cached_within_a_byte_bound(tmp_path: Path) -> None:
    # Clients send the same tools each time, so schema checks are cached; unique 2 MB schemas grew the server
    # from 78 to 434 MB in 60 requests when the caches were bounded by count only.
    from shim import validation
    from shim.server.wire import tools as wire_tools

    model = replay(tmp_path, *["ok"] * 20)
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient(timeout=60) as http:
        with anyio.fail_after(120):
            for n in range(20):
                tool = _tool(f"t{n}", description=f"{n} " + "d" * 2_000_000)
                body = {"model": "m", "messages": QUESTION, "tools": [tool]}
                answer = await http.post(f"{url}/v1/chat/completions", json=body)
                assert answer.status_code == 200
    for cache in (validation._checks, wire_tools._problems):  # pyright: ignore[reportPrivateUsage]
        assert 0 < cache.size <= cache.max_size
        assert len(cache) < 20  # the oldest were let go
