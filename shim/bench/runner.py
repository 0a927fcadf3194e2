"""Drive parsers over the corpus under every chunker, and time them on growing streams.

Accuracy: for each parser and case the whole-message run comes first (the reference for chunk invariance),
then every chunking of every chunker. A cell (case x chunker) that runs past ``cell_limit_s`` is stopped and
counted as a timeout: a quadratic strategy on a large case must not stall the benchmark, and the report
shows that it happened.

Throughput: two workloads (many small calls in prose; one call with one huge argument) at a small and a 10x
size, fed in fixed-size chunks. The scaling ratio is the cost per byte at 10x over the cost per byte at 1x:
1.0 is linear, about 10 is quadratic.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from shim.bench.adapters import ParserSpec
from shim.bench.chunkers import Chunker
from shim.bench.corpus import Case
from shim.bench.metrics import CellScore, Outcome, outcome_of, score_run
from shim.bench.mutations import TOOL_SPECS

__all__ = ["ThroughputConfig", "huge_workload", "mixed_workload", "run_accuracy", "run_throughput", "stream"]


def stream(
    spec: ParserSpec,
    chunks: Sequence[str],
    *,
    deadline: float = float("inf"),
    tools: Sequence[dict[str, Any]] = TOOL_SPECS,
    in_reasoning: bool = False,
) -> Outcome:
    """Feed ``chunks`` to a fresh parser that knows ``tools`` (and, with ``in_reasoning``, that the output starts
    inside reasoning, if it has that setting) and fold its events.

    A raised exception is recorded in the outcome, not propagated.
    """
    events: list[dict[str, Any]] = []
    make = spec.make_in_reasoning if in_reasoning and spec.make_in_reasoning is not None else spec.make
    try:
        parser = make(tools)
        for chunk in chunks:
            events += parser.feed(chunk)
            if time.perf_counter() > deadline:
                return outcome_of(events, timeout=True)
        events += parser.close()
    except Exception as exc:  # a crash on any input is a finding to report, not a reason to stop the run
        return outcome_of(events, crash=f"{type(exc).__name__}: {exc}"[:300])
    return outcome_of(events)


def _abridge(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit // 2] + f"…[{len(text) - limit} chars]…" + text[-limit // 2 :]


def _example(chunks: list[str], outcome: Outcome) -> dict[str, Any]:
    return {
        "chunks": len(chunks),
        "first_chunk": _abridge(chunks[0], 120) if chunks else "",
        "calls": [{"name": n, "arguments": _abridge(a, 200)} for n, a in outcome.calls],
        "text": _abridge(outcome.text),
        "errors": outcome.errors,
        "crash": outcome.crash,
        "timeout": outcome.timeout,
    }


def run_accuracy(
    cases: Sequence[Case],
    specs: Sequence[ParserSpec],
    chunkers: Sequence[Chunker],
    *,
    cell_limit_s: float = 20.0,
    on_case: Callable[[str, Case], None] | None = None,
) -> list[CellScore]:
    """Score every parser on every case under every chunker; ``on_case`` is called after each (parser, case)."""
    cells: list[CellScore] = []
    for spec in specs:
        for case in cases:
            tools = TOOL_SPECS if case.tools is None else case.tools
            reasoning = case.starts_in_reasoning
            reference = stream(spec, [case.text], tools=tools, in_reasoning=reasoning)
            for chunker in chunkers:
                cell = CellScore(
                    parser=spec.name, case_id=case.id, category=case.category, source=case.source, chunker=chunker.name
                )
                deadline = time.perf_counter() + cell_limit_s
                for chunks in chunker.split(case.text):
                    outcome = (
                        reference
                        if chunker.name == "whole"
                        else stream(spec, chunks, deadline=deadline, tools=tools, in_reasoning=reasoning)
                    )
                    run = score_run(case, outcome, reference)
                    cell.add(run)
                    if cell.example is None and not (
                        run.exact and run.text_ok and run.errors_ok is not False and run.raw_ok and run.invariant
                    ):
                        cell.example = _example(chunks, outcome)
                    if outcome.timeout:
                        break
                cells.append(cell)
            if on_case is not None:
                on_case(spec.name, case)
    return cells


# --- throughput -----------------------------------------------------------------------------------------


def mixed_workload(size: int) -> str:
    """Prose and small tagged calls repeated to ``size`` characters (a long agent transcript)."""
    unit = (
        "Let me look that up for you, one moment please.\n"
        '<function_call>{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}</function_call>\n'
        "The result says it is sunny; next I will search the web for more.\n"
    )
    return (unit * (size // len(unit) + 1))[:size]


def huge_workload(size: int) -> str:
    """One ``write_file`` call whose ``content`` makes the stream ``size`` characters long (a file body)."""
    head = '<function_call>{"name": "write_file", "arguments": {"path": "big.py", "content": "'
    tail = '"}}</function_call>'
    line = 'print(\\"hello, world\\")  # a line of code\\n'
    body = (line * ((size - len(head) - len(tail)) // len(line) + 1))[: size - len(head) - len(tail)]
    body = body.rstrip("\\")  # never end the string on a lone escape character
    text = head + body + tail
    json.loads(text[len("<function_call>") : -len("</function_call>")])  # the workload itself must be valid
    return text


@dataclass(frozen=True, kw_only=True)
class ThroughputConfig:
    """Sizes and limits of the throughput measurement."""

    small: int = 10_000
    factor: int = 10
    chunk_size: int = 16
    repeats: int = 3
    cap_s: float = 20.0
    """A run longer than this is stopped; its rate then covers only the bytes fed (a lower bound on cost)."""


def _time_once(spec: ParserSpec, text: str, chunk: int, cap_s: float) -> dict[str, Any]:
    chunks = [text[i : i + chunk] for i in range(0, len(text), chunk)]
    parser = spec.make(TOOL_SPECS)
    fed = 0
    start = time.perf_counter()
    stop = start + cap_s
    capped = False
    crash: str | None = None
    try:
        for c in chunks:
            parser.feed(c)
            fed += len(c)
            if time.perf_counter() > stop:
                capped = True
                break
        if not capped:
            parser.close()
    except Exception as exc:  # reported as a crash in the throughput table
        crash = f"{type(exc).__name__}: {exc}"[:200]
    seconds = max(time.perf_counter() - start, 1e-9)
    n_chunks = max(1, -(-fed // chunk))
    return {
        "bytes": fed,
        "seconds": round(seconds, 6),
        "mb_per_s": round(fed / seconds / 1e6, 4),
        "us_per_chunk": round(seconds / n_chunks * 1e6, 3),
        "capped": capped,
        "crash": crash,
    }


def _best(spec: ParserSpec, text: str, cfg: ThroughputConfig, repeats: int) -> dict[str, Any]:
    runs = [_time_once(spec, text, cfg.chunk_size, cfg.cap_s) for _ in range(repeats)]
    return min(runs, key=lambda r: r["seconds"] / max(r["bytes"], 1))  # least disturbed by other load


def run_throughput(
    specs: Sequence[ParserSpec],
    cfg: ThroughputConfig,
    *,
    on_step: Callable[[str, str], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Per parser and workload: the small and 10x runs and the scaling ratio of their per-byte costs."""
    results: dict[str, dict[str, Any]] = {}
    workloads = {"mixed": mixed_workload, "huge_arg": huge_workload}
    for spec in specs:
        per: dict[str, Any] = {}
        for name, make in workloads.items():
            small = _best(spec, make(cfg.small), cfg, cfg.repeats)
            large = _best(spec, make(cfg.small * cfg.factor), cfg, max(1, cfg.repeats - 2))
            cost_small = small["seconds"] / max(small["bytes"], 1)
            cost_large = large["seconds"] / max(large["bytes"], 1)
            per[name] = {
                "small": small,
                "large": large,
                "scaling": round(cost_large / cost_small, 3),
                "scaling_is_lower_bound": bool(large["capped"]),
            }
            if on_step is not None:
                on_step(spec.name, name)
        results[spec.name] = per
    return results
