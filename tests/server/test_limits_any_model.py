"""``--any-model DIR``: a client may name model files inside DIR and nothing else (no /proc, no FIFO, no
symlink or ``..`` out of it, no URL for the server to call), and the models it opens are bounded."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from shim.errors import ConfigError
from shim.server import ServerSettings, create_app
from tests.server._helpers import serving

pytestmark = pytest.mark.anyio


def recording(path: Path, text: str) -> Path:
    path.write_text(json.dumps({"response": text}) + "\n", encoding="utf-8")
    return path


async def ask(http: httpx.AsyncClient, model: str) -> httpx.Response:
    body: dict[str, Any] = {"model": model, "messages": [{"role": "user", "content": "?"}]}
    with anyio.fail_after(10):
        return await http.post("/v1/chat/completions", json=body)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
async def test_only_regular_files_inside_the_directory_are_served(tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    recording(models / "ok.jsonl", "Served from the directory.")
    outside = recording(tmp_path / "outside.jsonl", "secret")
    (models / "escape.jsonl").symlink_to(outside)
    os.mkfifo(models / "fifo.jsonl")
    app = create_app({}, settings=ServerSettings(any_model=str(models)))
    refused_specs = [
        "replay:/proc/self/environ",
        f"replay:{outside}",
        "replay:../outside.jsonl",
        "replay:escape.jsonl",
        "replay:fifo.jsonl",  # would block the worker that opens it
        "replay:.",
        "llama-cpp:/dev/zero",
        "openai:gpt@http://attacker.example/v1",  # the server would send its API key there
        "ollama:qwen@http://attacker.example",
    ]
    async with serving(app) as url, httpx.AsyncClient(base_url=url) as http:
        served = await ask(http, "replay:ok.jsonl")
        absolute = await ask(http, f"replay:{models / 'ok.jsonl'}")
        refused = {spec: await ask(http, spec) for spec in refused_specs}
    assert served.json()["choices"][0]["message"]["content"] == "Served from the directory."
    assert absolute.status_code == 200
    for spec, response in refused.items():
        assert response.status_code == 404, spec
        assert response.json()["error"]["code"] == "model_not_found", spec
        assert "secret" not in response.text and "environ" not in response.text.replace(spec, ""), spec


async def test_models_opened_on_request_are_bounded_least_recently_used_first(tmp_path: Path) -> None:
    for name in "abc":
        recording(tmp_path / f"{name}.jsonl", f"I am {name}.")
    app = create_app({}, settings=ServerSettings(any_model=str(tmp_path), max_loaded_models=2))
    async with serving(app) as url, httpx.AsyncClient(base_url=url) as http:
        for name in "abc":
            assert (await ask(http, f"replay:{name}.jsonl")).status_code == 200
        listed = [m["id"] for m in (await http.get("/v1/models")).json()["data"]]
    assert listed == ["replay:b.jsonl", "replay:c.jsonl"]


def test_the_directory_must_be_one_that_holds_models(tmp_path: Path) -> None:
    for bad in ("/", "/proc", str(tmp_path / "missing")):
        with pytest.raises(ConfigError, match="--any-model"):
            create_app({}, settings=ServerSettings(any_model=bad))
