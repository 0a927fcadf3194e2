"""``x-shim-call-constraint`` is the loop's own decision for its first turn (`Agent`, told through
`shim.notices`), never a second guess made by the surface before the loop runs: the header says ``grammar``
exactly when the engine was handed a call constraint, on every surface."""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import pytest

from shim.backends.scripted import ScriptedBackend
from shim.server import create_app
from tests.server._helpers import WEATHER, call_block, serving

pytestmark = pytest.mark.anyio


class Constraining(ScriptedBackend):
    """A scripted engine that says it can enforce a call grammar (it records the options it was given)."""

    @property
    def can_constrain(self) -> bool:
        return True


ANSWER = "It is sunny."
CALL = call_block("get_weather", city="Paris")
TOOL = WEATHER["function"]
BODIES: dict[str, tuple[str, dict[str, Any]]] = {
    "chat": (
        "/v1/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "Weather?"}], "tools": [WEATHER]},
    ),
    "responses": (
        "/v1/responses",
        {"model": "m", "input": "Weather?", "tools": [{"type": "function", **TOOL}]},
    ),
    "anthropic": (
        "/v1/messages",
        {
            "model": "m",
            "max_tokens": 100,
            "messages": [{"role": "user", "content": "Weather?"}],
            "tools": [{"name": TOOL["name"], "description": TOOL["description"], "input_schema": TOOL["parameters"]}],
        },
    ),
    "ollama": (
        "/api/chat",
        {"model": "m", "stream": False, "messages": [{"role": "user", "content": "Weather?"}], "tools": [WEATHER]},
    ),
}


async def _post(backend: ScriptedBackend, surface: str, **fields: Any) -> httpx.Response:
    path, body = BODIES[surface]
    async with serving(create_app({"m": backend})) as url, httpx.AsyncClient(base_url=url) as client:
        with anyio.fail_after(10):
            return await client.post(path, json=body | fields)


@pytest.mark.parametrize("surface", sorted(BODIES))
async def test_the_header_says_grammar_when_the_engine_was_given_the_call_constraint(surface: str) -> None:
    backend = Constraining([CALL, ANSWER])
    response = await _post(backend, surface)
    assert response.status_code == 200, response.text
    assert backend.requests[0].options.constraint is not None
    assert response.headers["x-shim-call-constraint"] == "grammar"


@pytest.mark.parametrize("surface", ["chat", "anthropic"])
async def test_the_header_says_none_when_tool_choice_none_left_the_engine_unconstrained(surface: str) -> None:
    backend = Constraining([ANSWER])
    choice = "none" if surface == "chat" else {"type": "none"}
    response = await _post(backend, surface, tool_choice=choice)
    assert response.status_code == 200, response.text
    assert backend.requests[0].options.constraint is None
    assert response.headers["x-shim-call-constraint"] == "none"


async def test_the_header_says_none_on_an_engine_that_cannot_constrain() -> None:
    backend = ScriptedBackend([CALL, ANSWER])
    response = await _post(backend, "chat")
    assert response.status_code == 200, response.text
    assert backend.requests[0].options.constraint is None
    assert response.headers["x-shim-call-constraint"] == "none"


async def test_a_request_without_tools_gets_no_call_constraint_header() -> None:
    backend = Constraining([ANSWER])
    path, body = BODIES["chat"]
    async with serving(create_app({"m": backend})) as url, httpx.AsyncClient(base_url=url) as client:
        with anyio.fail_after(10):
            response = await client.post(path, json={k: v for k, v in body.items() if k != "tools"})
    assert response.status_code == 200, response.text
    assert "x-shim-call-constraint" not in response.headers
