"""`ChatRequest`: every surface reads a request's messages once, into the typed conversation the loop runs on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

import shim.prompting.messages as messages_module
from shim.server import create_app
from tests.server._helpers import Recording, replay, serving

pytestmark = pytest.mark.anyio

_SURFACES: list[tuple[str, dict[str, Any], int]] = [  # path, body, messages the surface hands to the reader
    (
        "/v1/chat/completions",
        {"model": "m", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]},
        2,
    ),
    ("/v1/responses", {"model": "m", "instructions": "Be brief.", "input": "Hi"}, 2),
    (
        "/v1/messages",
        {"model": "m", "max_tokens": 64, "system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]},
        2,
    ),
    ("/api/chat", {"model": "m", "stream": False, "messages": [{"role": "user", "content": "Hi"}]}, 1),
    ("/api/generate", {"model": "m", "stream": False, "system": "Be brief.", "prompt": "Hi"}, 2),
]


@pytest.mark.parametrize(("path", "body", "read"), _SURFACES, ids=[s[0] for s in _SURFACES])
async def test_a_surface_reads_each_message_once_and_the_loop_never_reads_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str, body: dict[str, Any], read: int
) -> None:
    seen: list[str] = []
    reader = messages_module._message  # pyright: ignore[reportPrivateUsage]

    def counting(role: Any, message: Any) -> Any:
        seen.append(role)
        return reader(role, message)

    monkeypatch.setattr(messages_module, "_message", counting)
    model = Recording(replay(tmp_path, "Hello."))
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient(base_url=url) as http:
        with anyio.fail_after(30):
            response = await http.post(path, json=body)
    assert response.status_code == 200, response.text
    assert "Hello." in response.text
    assert len(seen) == read  # the wire check's read; the loop takes the typed messages as they are
