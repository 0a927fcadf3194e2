"""``shim serve`` as a user starts it: a real process, listening on a free port, printing its base URLs."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from shim.cli import main
from tests.helpers.processes import STARTUP_GUARD, read_until, running

pytestmark = pytest.mark.anyio

SHIM = Path(sys.executable).parent / "shim"


async def test_serve_prints_its_base_urls_and_answers_with_the_api_key_from_the_environment(tmp_path: Path) -> None:
    recording = tmp_path / "r.jsonl"
    recording.write_text(json.dumps({"response": "Served."}) + "\n", encoding="utf-8")
    env = {**os.environ, "SHIM_API_KEY": "sesame", "SHIM_MODEL": "", "SHIM_CONFIG": ""}
    command = [str(SHIM), "serve", "--port", "0", "--model", f"rec=replay:{recording}", "--log-level", "warning"]
    async with running(command, env=env) as process:
        printed = await read_until(process, "Ollama-compatible")
        base = re.search(r"OpenAI-compatible:\s+(\S+)", printed)
        assert base is not None and base.group(1).startswith("http://127.0.0.1:")
        async with httpx.AsyncClient(base_url=base.group(1), timeout=STARTUP_GUARD) as http:
            refused = await http.get("/models")
            body = {"model": "rec", "messages": [{"role": "user", "content": "hi"}]}
            reply = await http.post("/chat/completions", json=body, headers={"Authorization": "Bearer sesame"})
    assert "'rec' in pass-through mode" in printed
    assert re.search(r"Anthropic-compatible:\s+http://127\.0\.0\.1:\d+\s", printed)  # Claude Code's base URL
    assert refused.status_code == 401
    assert reply.json()["choices"][0]["message"]["content"] == "Served."


def test_serve_without_a_model_says_how_to_give_one() -> None:
    result = CliRunner().invoke(main, ["serve", "--port", "0"], env={"SHIM_MODEL": "", "SHIM_CONFIG": ""})
    assert result.exit_code != 0 and "--model NAME=SPEC" in result.output


def test_serve_rejects_a_bad_model_option() -> None:
    result = CliRunner().invoke(main, ["serve", "-m", "=replay:x"], env={"SHIM_MODEL": "", "SHIM_CONFIG": ""})
    assert result.exit_code != 0 and "NAME=SPEC" in result.output


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'{"mcpServers": {"x": {"command": 5}}}', "server 'x'"),
        (b'{"mcpServers": ', "not valid JSON"),
        (b"\xff\xfe{", "bad.json"),
    ],
    ids=["bad-field", "not-json", "not-utf8"],
)
def test_serve_with_a_bad_config_prints_one_line_and_no_banner(tmp_path: Path, content: bytes, expected: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    recording = tmp_path / "r.jsonl"
    recording.write_text(json.dumps({"response": "x"}) + "\n", encoding="utf-8")
    args = ["serve", "--port", "0", "--config", str(bad), "-m", f"r=replay:{recording}"]
    result = CliRunner().invoke(main, args, env={"SHIM_MODEL": "", "SHIM_CONFIG": ""})
    assert result.exit_code == 2
    assert "shim serve:" not in result.output and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and expected in lines[0], result.output


def test_serve_refuses_an_any_model_directory_that_would_expose_the_system() -> None:
    result = CliRunner().invoke(main, ["serve", "--any-model", "/proc"], env={"SHIM_MODEL": "", "SHIM_CONFIG": ""})
    assert result.exit_code == 2 and "--any-model" in result.output and "shim serve:" not in result.output
