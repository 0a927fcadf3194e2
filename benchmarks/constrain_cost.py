"""What constrained decoding costs on the embedded engine: ``python benchmarks/constrain_cost.py``.

The shipped demo model answers the demo requests through shim's prompt, greedy, once with calls constrained
to the offered tools and once without, in alternation (so that load from other processes hits both alike).
Reported per mode: generated tokens, seconds, tokens per second; and the ratio constrained / unconstrained.
``lazy`` is the default mode (free text until the opener, then the grammar); ``forced`` is ``tool_choice``
required (the grammar from the first token). The prompt is evaluated once beforehand, so the timings are of
generation (each run re-evaluates only the tail of the prompt, as a chat turn does).

Not a test: timings depend on the machine. Prints a table and, last, one line
``lazy_ratio=R forced_ratio=R`` (constrained tokens/s divided by unconstrained tokens/s).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

import anyio

from shim.backends.base import GenerationOptions
from shim.backends.llamacpp import LlamaCppBackend
from shim.constrain.schema import CallConstraint, build_constraint
from shim.demo import DEMO_REQUESTS, demo_tool_specs, model_path
from shim.prompting import render_messages
from shim.types import ToolSpec


@dataclass
class Tally:
    tokens: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.tokens / self.seconds if self.seconds else 0.0


async def generate(
    backend: LlamaCppBackend, tools: list[ToolSpec], text: str, constraint: CallConstraint | None, tally: Tally
) -> None:
    messages = render_messages(
        [{"role": "user", "content": text}],
        tools,
        tool_choice="required" if constraint and constraint.forced else "auto",
    )
    options = GenerationOptions(temperature=0.0, seed=0, max_tokens=120, constraint=constraint)
    started = time.perf_counter()
    result = await backend.stream(messages, options=options).collect()
    tally.seconds += time.perf_counter() - started
    tally.tokens += (result.usage.completion_tokens if result.usage else 0) or 0


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, default=model_path())
    parser.add_argument("--rounds", type=int, default=3, help="passes over the demo requests per mode")
    args = parser.parse_args()
    tools = await demo_tool_specs()
    backend = LlamaCppBackend(args.model, n_ctx=2048, n_threads=2)
    modes: dict[str, CallConstraint | None] = {
        "unconstrained": None,
        "lazy": build_constraint(tools, "function_call"),
        "forced": build_constraint(tools, "function_call", mode="required"),
    }
    tallies = {name: Tally() for name in modes}
    await generate(backend, tools, DEMO_REQUESTS[0].text, None, Tally())  # warm-up: load, evaluate the prompt
    for _ in range(args.rounds):
        for request in DEMO_REQUESTS:
            for name, constraint in modes.items():
                await generate(backend, tools, request.text, constraint, tallies[name])
    print(f"{'mode':<14}{'tokens':>8}{'seconds':>9}{'tokens/s':>10}")
    for name, tally in tallies.items():
        print(f"{name:<14}{tally.tokens:>8}{tally.seconds:>9.2f}{tally.rate:>10.1f}")
    base = tallies["unconstrained"].rate
    print(f"lazy_ratio={tallies['lazy'].rate / base:.2f} forced_ratio={tallies['forced'].rate / base:.2f}")


if __name__ == "__main__":
    anyio.run(main)
