"""Measure the demo model on held-out requests: ``python benchmarks/tiny_model/evaluate.py``.

Each request goes through the pieces the demo uses: shim's prompt (`render_messages` with the demo server's
tools), the embedded llama.cpp backend (greedy, seeded), `StreamParser`, the demo tool itself, the result
rendered back with `render_messages`, and a second generation for the final answer. A request passes when
the model called the expected tool with equivalent arguments (same value for arithmetic and numbers, same
text otherwise) AND the final answer contains the tool's result text. Needs no PyTorch.

Prints the pass rate overall, per language and per tool, and writes ``RESULTS.md`` beside this file.
"""

from __future__ import annotations

import argparse
import collections
import math
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import anyio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import data  # noqa: E402
import recipe  # noqa: E402

from shim.backends.base import GenerationOptions  # noqa: E402
from shim.backends.llamacpp import LlamaCppBackend  # noqa: E402
from shim.demo import demo_tool_specs, model_path  # noqa: E402
from shim.demo.tools import DemoToolError, DemoTools, _unit  # noqa: E402  # pyright: ignore[reportPrivateUsage]
from shim.events import ToolCallEnd  # noqa: E402
from shim.parsing.stream import StreamParser  # noqa: E402
from shim.prompting import render_messages  # noqa: E402
from shim.types import ToolSpec  # noqa: E402

NOW = datetime(2026, 5, 4, 12, 30, tzinfo=timezone.utc)
OPTIONS = GenerationOptions(temperature=0.0, seed=0, max_tokens=120)


def same_arguments(tool: str, got: dict[str, Any], expected: dict[str, Any]) -> bool:
    """Equivalent arguments: an expression with the same value, numbers equal, units with the same meaning."""
    if set(got) != set(expected):
        return False
    try:
        if tool == "calculate":
            tools = DemoTools()
            return tools.calculate(str(got["expression"])) == tools.calculate(expected["expression"])
        if tool == "convert_units":
            return (
                isinstance(got["value"], int | float)
                and math.isclose(got["value"], expected["value"])
                and _unit(str(got["from_unit"])) == expected["from_unit"]
                and _unit(str(got["to_unit"])) == expected["to_unit"]
            )
    except DemoToolError:
        return False
    return got == expected


async def generate(backend: LlamaCppBackend, messages: list[dict[str, Any]], tools: list[ToolSpec]) -> str:
    async with backend.stream(render_messages(messages, tools), options=OPTIONS) as stream:
        return "".join([chunk async for chunk in stream])


async def run_one(backend: LlamaCppBackend, tools: list[ToolSpec], sample: data.Sample) -> dict[str, Any]:
    """One request through the pipeline; a record of what happened and whether it passed."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": sample.request}]
    first = await generate(backend, messages, tools)
    parser = StreamParser(tools=tools)
    events = parser.feed(first) + parser.close()
    calls = [e for e in events if isinstance(e, ToolCallEnd)]
    record: dict[str, Any] = {"sample": sample, "output": first, "call": None, "answer": "", "passed": False}
    if len(calls) != 1:
        return record
    call = calls[0]
    record["call"] = (call.name, call.arguments)
    state = DemoTools(now=NOW, store=dict(sample.store))
    arguments = dict(call.arguments)
    try:
        method = getattr(state, call.name) if call.name in {t.name for t in tools} else None
        if method is None:
            return record
        if call.name == "get_time":
            arguments = {"timezone_name": arguments.get("timezone", "UTC")}
        result, error = method(**arguments), False
    except (DemoToolError, TypeError) as exc:
        result, error = f"Error: {exc}", True
    tool_call = {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
    messages += [
        {"role": "assistant", "content": None, "tool_calls": [tool_call]},
        {"role": "tool", "tool_call_id": call.id, "name": call.name, "content": result, "is_error": error},
    ]
    answer = await generate(backend, messages, tools)
    record["answer"] = answer
    record["passed"] = (
        call.name == sample.tool
        and same_arguments(call.name, call.arguments, sample.arguments)
        and not error
        and result in answer
    )
    return record


def report(records: list[dict[str, Any]], seconds: float) -> str:
    def rate(rows: list[dict[str, Any]]) -> str:
        passed = sum(r["passed"] for r in rows)
        return f"{passed}/{len(rows)} ({100 * passed / max(len(rows), 1):.1f}%)"

    by_lang: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    by_tool: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for r in records:
        by_lang[r["sample"].lang].append(r)
        by_tool[r["sample"].tool].append(r)
    lines = [
        "# Tiny demo model: held-out evaluation",
        "",
        f"Model `shim/demo/model/shim-tiny.gguf`, script version {recipe.SCRIPT_VERSION}, data seed "
        f"{recipe.DATA_SEED}; {len(records)} held-out requests (texts never seen in training), greedy decoding, "
        f"{seconds:.0f} s. Pass = the expected tool with equivalent arguments, and a final answer containing "
        "the tool's result.",
        "",
        f"**Overall: {rate(records)}**",
        "",
        "| Slice | Passed |",
        "|---|---|",
        *(f"| {'English' if k == 'en' else 'Korean'} | {rate(v)} |" for k, v in sorted(by_lang.items())),
        *(f"| `{k}` | {rate(v)} |" for k, v in sorted(by_tool.items())),
        "",
        "Failures (first 15):",
        "",
    ]
    for r in [r for r in records if not r["passed"]][:15]:
        s = r["sample"]
        lines.append(f"- `{s.request}` expected `{s.tool}` {s.arguments}; got {r['call']}; answer `{r['answer']}`")
    return "\n".join(lines) + "\n"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, default=model_path())
    parser.add_argument("--limit", type=int, default=recipe.N_EVAL)
    parser.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    args = parser.parse_args()
    _, held = data.split(recipe.DATA_SEED, recipe.N_TRAIN, recipe.N_EVAL)
    tools = await demo_tool_specs()
    backend = LlamaCppBackend(args.model, n_ctx=2048, n_threads=2)
    started = time.monotonic()
    records = [await run_one(backend, tools, sample) for sample in held[: args.limit]]
    text = report(records, time.monotonic() - started)
    print(text)
    if not args.no_write:
        (HERE / "RESULTS.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    anyio.run(main)
