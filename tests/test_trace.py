"""Trace files: secrets are redacted on the assembled text, even when the model writes them in pieces."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_servers import lab, lab_in_process

from shim.agent import Agent
from shim.backends.scripted import ScriptedBackend
from shim.config import parse_config
from shim.parsing.stream import StreamParser
from shim.redact import MARK
from shim.routing import ToolRouter
from shim.trace import TraceWriter
from shim.types import ToolSpec

pytestmark = pytest.mark.anyio

SECRET = "hx7Q-k2Lp-9zRt-w4Mv"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def replay(tmp_path: Path, *turns: str) -> Any:
    """Model turns served in 4-character chunks, as a stream would bring them (no file: ``tmp_path`` is not
    needed, and kept so every test calls it alike)."""
    del tmp_path
    return ScriptedBackend(turns, chunk_size=4)


def fragments(secret: str, size: int = 5) -> set[str]:
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def test_a_secret_the_model_repeats_in_pieces_never_reaches_the_trace_or_the_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    servers = parse_config({"mcpServers": {"lab": lab(env={"LAB_SECRET": SECRET})}}).servers
    call = json.dumps({"name": "lab__fail", "arguments": {"reason": f"it is {SECRET}"}})
    turns = (f"Sure. The secret is {SECRET}, as asked. <function_call>{call}</function_call>", f"Done: {SECRET}.")
    with caplog.at_level(logging.DEBUG, logger="shim"), anyio.fail_after(30):
        async with ToolRouter(servers, connect={"lab": lab_in_process(secret=SECRET)}) as router:
            agent = Agent(replay(tmp_path, *turns), router, trace=tmp_path / "t.jsonl")
            await agent.run("Tell me the secret.")
    text = (tmp_path / "t.jsonl").read_text(encoding="utf-8")
    assert not any(f in text for f in fragments(SECRET)), text
    assert not any(f in caplog.text for f in fragments(SECRET)), caplog.text
    assert MARK in text and MARK in caplog.text  # the audit line of the failed call
    lines = records(tmp_path / "t.jsonl")
    events = [r["event"] for r in lines if r["type"] == "event" and r["turn"] == 1]
    text_pieces = "".join(e["text"] for e in events if e["type"] == "text")
    assert text_pieces.startswith(f"Sure. The secret is {MARK}, as asked.")
    first = next(r for r in lines if r["type"] == "response")
    assert "".join(first["chunks"]) == first["response"]  # replay still gets the whole (redacted) reply
    assert "".join(e["raw"] for e in events) == first["response"]  # raw still rebuilds it


@pytest.mark.parametrize("size", [1, 3, 4, 7])
def test_trace_event_lines_keep_their_number_when_a_secret_spans_them(size: int) -> None:
    secret = 'k"ey\\with\nodd-chars'
    output = (
        f"The key: {secret}. <function_call>{json.dumps({'name': 'f', 'arguments': {'k': secret}})}</function_call>"
    )
    parser = StreamParser([ToolSpec(name="f", input_schema={"type": "object"})])
    events = [e for i in range(0, len(output), size) for e in parser.feed(output[i : i + size])]
    events += parser.close()
    stream = io.StringIO()
    trace = TraceWriter(stream, secrets=[secret])
    for event in events:
        trace.write("event", turn=1, event=event.to_dict())
    trace.write("done", reason="answer")
    written = stream.getvalue()
    lines = [json.loads(line) for line in written.splitlines()]
    assert len(lines) == len(events) + 1
    assert [line["event"]["type"] for line in lines[:-1]] == [e.to_dict()["type"] for e in events]
    assert secret[:4] not in written and json.dumps(secret)[1:6] not in written
    end = next(line["event"] for line in lines if line["event"]["type"] == "tool_call_end")
    assert end["arguments"] == {"k": MARK}


def test_only_a_few_event_lines_wait_for_the_text_that_follows_them() -> None:
    stream = io.StringIO()
    secret = "a-secret-nobody-says"
    trace = TraceWriter(stream, secrets=[secret])
    for i in range(100):
        trace.write("event", turn=1, event={"type": "text", "text": f"word{i} ", "raw": f"word{i} "})
    waiting = 100 - len(stream.getvalue().splitlines())
    # Held back: only what could still be the start of the secret in its longest written form (split by a
    # line break after every character, escaped: about five characters for each of the secret's), never more.
    longest = 5 * len(secret)
    assert 0 < waiting <= longest // len("word0 ") + 1
    trace.flush()
    assert len(stream.getvalue().splitlines()) == 100


def test_event_lines_held_back_are_written_when_the_process_exits(tmp_path: Path) -> None:
    script = (
        "from shim.trace import TraceWriter\n"
        f"t = TraceWriter({str(tmp_path / 't.jsonl')!r}, secrets=['never-said-secret'])\n"
        "t.write('event', turn=1, event={'type': 'text', 'text': 'cut off mid-wor', 'raw': 'cut off mid-wor'})\n"
        "raise SystemExit(3)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}  # this tree's shim, not another
    done = subprocess.run([sys.executable, "-c", script], timeout=60, check=False, env=env)
    assert done.returncode == 3
    (line,) = records(tmp_path / "t.jsonl")
    assert line["event"]["text"] == "cut off mid-wor"
