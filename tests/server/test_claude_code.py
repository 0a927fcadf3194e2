"""Claude Code (``@anthropic-ai/claude-code``) on a local model through the Messages surface.

The real client runs ``claude -p`` against the app on 127.0.0.1 with a recorded model that reads a file with
Claude Code's own Read tool and then answers; the wire tests send a request body Claude Code really sent
(``recorded/claude_code_messages.json``: ``role: "system"`` messages inside ``messages``, ``thinking:
adaptive``, ``output_config.effort``, ``context_management``, ``metadata``, ``cache_control`` blocks, 24
tools, ``max_tokens: 64000``, ``?beta=true``).
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

MODEL = "claude-opus-4-8"
"""The model Claude Code 2.1.197 asks for by default (the recording's); a server offers it as an alias."""


def claude_env(home: Path, url: str, **extra: str) -> dict[str, str]:
    """Claude Code on ``url`` with nothing else reachable: no telemetry, error reports, update checks or other
    background traffic."""
    return offline_env(
        home,
        ANTHROPIC_BASE_URL=url,
        ANTHROPIC_API_KEY="sk-local",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_TELEMETRY="1",
        DISABLE_ERROR_REPORTING="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_BUG_COMMAND="1",
        **extra,
    )


def streamed_text(sse: str) -> str:
    """The text of a Messages stream (its ``text_delta`` events, joined)."""
    events = [json.loads(line[len("data: ") :]) for line in sse.splitlines() if line.startswith("data: ")]
    return "".join(e["delta"]["text"] for e in events if e["type"] == "content_block_delta" and "text" in e["delta"])


async def test_claude_code_reads_a_file_with_its_read_tool_sends_the_result_back_and_prints_the_answer(
    tmp_path: Path,
) -> None:
    claude = agent_bin("claude")
    project = tmp_path / "project"
    project.mkdir()
    notes = project / "notes.txt"
    notes.write_text("the launch code is 7741\n", encoding="utf-8")
    model = Recording(
        replay(
            tmp_path,
            "I will read the file. " + call_block("Read", file_path=str(notes)),
            "The notes say the launch code is 7741.",
        )
    )
    async with serving(create_app({"local": model})) as url:
        with anyio.fail_after(120):
            done = await anyio.run_process(
                [claude, "-p", "What is in notes.txt?"],
                cwd=project,
                env=claude_env(
                    tmp_path / "home",
                    url,
                    ANTHROPIC_MODEL="local",
                    ANTHROPIC_DEFAULT_HAIKU_MODEL="local",
                    ANTHROPIC_SMALL_FAST_MODEL="local",
                ),
                check=False,
            )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, f"claude failed ({done.returncode}): {err}\n{out}"
    assert "The notes say the launch code is 7741." in out
    assert len(model.prompts) == 2  # one turn that calls Read, one that answers
    result = model.prompts[1][-1].content
    assert "<function_result" in result and "the launch code is 7741" in result  # Claude Code ran Read


async def test_the_request_claude_code_sends_is_answered_with_its_system_messages_folded_into_the_system_prompt(
    tmp_path: Path,
) -> None:
    sent = recorded("claude_code_messages")
    model = Recording(replay(tmp_path, "Hello from the local model."))
    async with serving(create_app({MODEL: model})) as url, httpx.AsyncClient(base_url=url) as http:
        with anyio.fail_after(20):
            response = await http.post(sent["path"], json=sent["body"])
    assert response.status_code == 200, response.text
    assert streamed_text(response.text) == "Hello from the local model."
    assert response.headers["x-shim-ignored-params"] == "context_management,metadata,output_config.effort"
    system = model.prompts[0][0]
    assert system.role == "system"
    first = sent["body"]["system"][1]["text"]
    folded = sent["body"]["messages"][1]["content"]  # a role: "system" message after the user's
    assert sent["body"]["messages"][1]["role"] == "system"
    assert first in system.content and folded in system.content
    assert system.content.index(first) < system.content.index(folded)  # in order
    assert [m.role for m in model.prompts[0][1:]] == ["user"]
    assert "x-anthropic-billing-header" not in system.content  # metadata for Anthropic's API, not the model
    assert model.options[0] is not None and model.options[0].max_tokens == 64000


async def test_count_tokens_takes_the_same_body_claude_code_sends(tmp_path: Path) -> None:
    sent = recorded("claude_code_messages")
    body = {k: v for k, v in sent["body"].items() if k not in ("max_tokens", "stream")}
    async with serving(create_app({MODEL: replay(tmp_path, "unused")})) as url, httpx.AsyncClient(base_url=url) as http:
        with anyio.fail_after(20):
            response = await http.post("/v1/messages/count_tokens?beta=true", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["input_tokens"] > 1000  # 24 tools and a long system prompt


async def test_hosted_server_tools_are_left_out_of_the_prompt_and_named_in_a_header(tmp_path: Path) -> None:
    sent = recorded("claude_code_messages")
    body: dict[str, Any] = copy.deepcopy(sent["body"]) | {"stream": False}
    body["tools"] += [
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 5},
        {"type": "code_execution_20250825", "name": "code_execution"},
    ]
    model = Recording(replay(tmp_path, "Hi."))
    async with serving(create_app({MODEL: model})) as url, httpx.AsyncClient(base_url=url) as http:
        with anyio.fail_after(20):
            response = await http.post("/v1/messages", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["x-shim-dropped-tools"] == "web_search_20250305,code_execution_20250825"
    prompt = model.prompts[0][0].content
    assert '"Read"' in prompt or "Read" in prompt
    assert "web_search_20250305" not in prompt and "code_execution" not in prompt


def test_the_recorded_request_is_a_real_claude_code_request() -> None:
    """The fixture the wire tests use carries what makes Claude Code's requests different."""
    sent = recorded("claude_code_messages")
    body = sent["body"]
    assert sent["path"] == "/v1/messages?beta=true"
    assert body["thinking"] == {"type": "adaptive"} and body["max_tokens"] == 64000
    assert "context_management" in body and "effort" in body["output_config"]
    assert any(m["role"] == "system" for m in body["messages"])
    assert any("cache_control" in b for b in body["system"])
    assert {t["name"] for t in body["tools"]} >= {"Read", "Bash", "Edit", "Write"}
    assert json.dumps(body).count("input_schema") >= 20
