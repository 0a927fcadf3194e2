"""``shim demo`` end to end: the shipped tiny model in the real llama.cpp runtime, the real demo MCP server
over stdio, the real parser and agent loop; greedy and seeded, so the run is the same every time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from shim.cli import main
from shim.demo import DEMO_REQUESTS

pytest.importorskip("llama_cpp")


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
