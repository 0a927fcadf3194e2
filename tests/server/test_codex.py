"""Codex CLI (``@openai/codex``) on a local model through the Responses surface.

The real client runs ``codex exec`` with a custom provider on the app's ``/v1/responses`` and a recorded
model that runs a command with Codex's own ``exec_command`` tool and then answers; the wire tests send a
request body Codex really sent (``recorded/codex_responses.json``: ``developer`` messages, a ``namespace``
tool grouping function tools, a hosted ``web_search`` tool, ``reasoning``, ``include``, ``client_metadata``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from shim.server import create_app
from tests.server._agents import agent_bin, offline_env, recorded
from tests.server._helpers import Recording, call_block, replay, serving

pytestmark = pytest.mark.anyio


def codex_config(url: str) -> str:
    """``config.toml`` for Codex on ``url``: a custom provider on the Responses API, and nothing phoned home (checked
    under strace in a network namespace: with these settings it resolves no host and connects only to ``url``)."""
    return f"""model = "local"
model_provider = "shim"
check_for_update_on_startup = false

[model_providers.shim]
name = "shim"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "SHIM_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[feedback]
enabled = false

# Without this, Codex syncs its curated plugins from github.com at start.
[features]
plugins = false
"""


async def test_codex_runs_a_command_with_its_shell_tool_sends_the_output_back_and_prints_the_answer(
    tmp_path: Path,
) -> None:
    codex = agent_bin("codex")
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("the launch code is 7741\n", encoding="utf-8")
    model = Recording(
        replay(
            tmp_path,
            "Let me look. " + call_block("exec_command", cmd="cat notes.txt"),
            "The notes say the launch code is 7741.",
        )
    )
    home = tmp_path / "codex-home"
    async with serving(create_app({"local": model})) as url:
        home.mkdir()
        (home / "config.toml").write_text(codex_config(url), encoding="utf-8")
        with anyio.fail_after(120):
            done = await anyio.run_process(
                [codex, "exec", "--skip-git-repo-check", "What is in notes.txt?"],
                cwd=project,
                env=offline_env(tmp_path / "home", CODEX_HOME=str(home), SHIM_API_KEY="sk-local"),
                input=b"",
                check=False,
            )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, f"codex failed ({done.returncode}): {err}\n{out}"
    assert "The notes say the launch code is 7741." in out
    assert len(model.prompts) == 2  # one turn that runs the command, one that answers
    result = model.prompts[1][-1].content
    assert "<function_result" in result and "the launch code is 7741" in result  # Codex ran the command


async def test_the_request_codex_sends_is_answered_with_web_search_left_out_and_named(tmp_path: Path) -> None:
    sent = recorded("codex_responses")
    model = Recording(replay(tmp_path, "Hello from the local model."))
    async with serving(create_app({"local-model": model})) as url, httpx.AsyncClient(base_url=url) as http:
        with anyio.fail_after(20):
            response = await http.post(sent["path"], json=sent["body"])
    assert response.status_code == 200, response.text
    events = [json.loads(line[len("data: ") :]) for line in response.text.splitlines() if line.startswith("data: ")]
    (done,) = [e for e in events if e["type"] == "response.completed"]
    assert done["response"]["output"][0]["content"][0]["text"] == "Hello from the local model."
    assert response.headers["x-shim-dropped-tools"] == "web_search"
    prompt = model.prompts[0][0].content
    assert "exec_command" in prompt and "close_agent" in prompt  # a namespace's tools are offered too


async def test_a_call_of_a_namespace_tool_goes_out_with_its_namespace_and_comes_back_in(tmp_path: Path) -> None:
    sent = recorded("codex_responses")
    namespace = next(t for t in sent["body"]["tools"] if t["type"] == "namespace")
    member = namespace["tools"][0]["name"]
    body: dict[str, Any] = copy.deepcopy(sent["body"]) | {"stream": False}
    model = Recording(replay(tmp_path, call_block(member, target="agent-1"), "Closed."))
    async with serving(create_app({"local-model": model})) as url, httpx.AsyncClient(base_url=url) as http:
        with anyio.fail_after(20):
            first = (await http.post("/v1/responses", json=body)).json()
            (call,) = [item for item in first["output"] if item["type"] == "function_call"]
            assert call["name"] == member and call["namespace"] == namespace["name"]
            output = {"type": "function_call_output", "call_id": call["call_id"], "output": "closed"}
            follow_up = body | {"input": [*body["input"], call, output]}
            second = await http.post("/v1/responses", json=follow_up)
    assert second.status_code == 200, second.text
    assert json.loads(call["arguments"]) == {"target": "agent-1"}
    history = "\n".join(m.content for m in model.prompts[1])
    assert f'"name": "{member}"' in history and "closed" in history  # the call and its result, under one name


def test_the_recorded_request_is_a_real_codex_request() -> None:
    body = recorded("codex_responses")["body"]
    kinds = {t["type"] for t in body["tools"]}
    assert kinds == {"function", "namespace", "web_search"}
    assert any(m.get("role") == "developer" for m in body["input"])
