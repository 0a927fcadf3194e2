"""``shim demo`` end to end: the shipped tiny model in the real llama.cpp runtime, the real demo MCP server
over stdio, the real parser and agent loop; greedy and seeded, so the run is the same every time."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from shim.cli import main
from shim.demo import DEMO_REQUESTS

pytest.importorskip("llama_cpp")

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_runs_every_request_through_real_calls_and_exits_0(tmp_path: Path) -> None:
    trace = tmp_path / "demo.jsonl"
    result = CliRunner().invoke(main, ["demo", "--trace", str(trace)])
    assert result.exit_code == 0, result.output
    assert f"{len(DEMO_REQUESTS)}/{len(DEMO_REQUESTS)} requests" in result.stdout
    records = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    results = [r for r in records if r["type"] == "tool_result"]
    assert [r["name"] for r in results] == [req.tool for req in DEMO_REQUESTS]
    assert not any(r["is_error"] for r in results)
    assert "391" in results[0]["content"]  # 17 * 23, computed by the demo server
    answers = [r for r in records if r["type"] == "done"]
    assert len(answers) == len(DEMO_REQUESTS) and all(a["reason"] == "answer" for a in answers)
    # Constrained by default: every turn that made a call made it under the grammar of the demo tools.
    responses = [r for r in records if r["type"] == "response" and "<function_call>" in r["response"]]
    assert len(responses) == len(DEMO_REQUESTS) and all(r["constrained"] for r in responses)


def test_a_wrong_call_is_reported_and_the_exit_status_says_so(tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    lines = []
    for request in DEMO_REQUESTS:
        wrong = {**request.arguments, "unexpected": 1} if request.tool == "calculate" else dict(request.arguments)
        lines.append(
            {"response": f"<function_call>{json.dumps({'name': request.tool, 'arguments': wrong})}</function_call>"}
        )
        lines.append({"response": "Done."})
    turns.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = CliRunner().invoke(main, ["demo", "-m", f"replay:{turns}"])
    assert result.exit_code == 1
    assert f"{len(DEMO_REQUESTS) - 1}/{len(DEMO_REQUESTS)} requests" in result.stdout


QUIET_LOAD = """
import sys, anyio
from shim.cli.demo import _backend
from shim.demo import model_path

async def main() -> None:
    llm = await _backend(f"llama-cpp:{model_path()}", shipped=True, verbose=sys.argv[1] == "verbose").model()
    arch = llm.metadata["general.architecture"]
    print(llm.n_ctx(), llm.metadata[f"{arch}.context_length"])

anyio.run(main)
"""


def load_shipped_model(mode: str) -> subprocess.CompletedProcess[str]:
    """In a fresh process: llama.cpp writes its log from C, to the process's own stderr, once per load."""
    return subprocess.run(
        [sys.executable, "-c", QUIET_LOAD, mode],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )


def test_the_shipped_model_loads_silently_with_the_context_it_was_trained_with() -> None:
    quiet = load_shipped_model("quiet")
    n_ctx, trained = quiet.stdout.split()
    assert n_ctx == trained  # a longer context only makes llama.cpp warn "possible training context overflow"
    assert quiet.stderr == ""


def test_verbose_shows_llama_cpps_own_log() -> None:
    assert "llama_context" in load_shipped_model("verbose").stderr


def test_the_demo_says_what_it_waits_for_from_the_start(tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    lines = [
        {"response": f"<function_call>{json.dumps({'name': r.tool, 'arguments': dict(r.arguments)})}</function_call>"}
        for r in DEMO_REQUESTS[:1]
    ]
    turns.write_text("".join(json.dumps(line) + "\n" for line in [*lines, {"response": "391."}]), encoding="utf-8")
    # FORCE_COLOR makes rich treat the captured stderr as a terminal, so the spinner draws.
    result = CliRunner().invoke(main, ["demo", "-m", f"replay:{turns}"], env={"FORCE_COLOR": "1"})
    waits = [text for text in ("starting shim", "starting the demo MCP server", "generating") if text in result.stderr]
    assert waits == ["starting shim", "starting the demo MCP server", "generating"], result.stderr


def test_ctrl_c_ends_the_demo_with_one_line_and_status_130(tmp_path: Path) -> None:
    # Its own process group, signalled whole, as a terminal's Ctrl-C signals the demo and its MCP server.
    demo = subprocess.Popen(
        [sys.executable, "-m", "shim", "demo"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SHIM_SERVER_LOG": str(tmp_path / "servers.log")},
    )
    try:
        assert demo.stderr is not None
        seen = b""
        while b"calls:" not in seen:  # the command is running: the spinner is up, servers are starting
            ready, _, _ = select.select([demo.stderr], [], [], 120)
            chunk = os.read(demo.stderr.fileno(), 4096) if ready else b""
            assert chunk, seen
            seen += chunk
        os.killpg(demo.pid, signal.SIGINT)
        _, rest = demo.communicate(timeout=120)
    finally:
        if demo.poll() is None:
            os.killpg(demo.pid, signal.SIGKILL)
        demo.communicate()  # reaps it and closes its pipes
    assert demo.returncode == 130
    after = (seen + rest).decode().split("calls:", 1)[1].splitlines()[1:]
    assert [line for line in after if line.strip()] == ["interrupted"]
