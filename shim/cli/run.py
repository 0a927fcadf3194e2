"""``shim run``: one task, streamed; exit status 0 when the model answered."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import anyio
import click
from rich.console import Console

from shim.agent import AgentEnd
from shim.backends.base import GenerationOptions
from shim.cli.files import stdin_is_terminal
from shim.cli.session import Approvals, Printer, common_options, open_agent, settings_from
from shim.errors import ShimError
from shim.redact import redact
from shim.settings import Settings
from shim.trace import EventRedactor


@click.command()
@click.argument("prompt", required=False)
@common_options
@click.option(
    "--constrain",
    type=click.Choice(["auto", "on", "off"]),
    help="Generate calls under a grammar of the offered tools: auto (default; where the backend can), on, off.",
)
@click.option("--json", "as_json", is_flag=True, help="Print every event as one JSON object per line instead.")
def run(
    prompt: str | None,
    model: str | None,
    config: str | None,
    dialect: str | None,
    profile: str | None,
    max_turns: int | None,
    one_call: bool,
    trace: Path | None,
    auto_approve: bool,
    temperature: float | None,
    max_tokens: int | None,
    server_logs: bool,
    constrain: str | None,
    as_json: bool,
) -> None:
    """Run one task: the model answers PROMPT (or standard input), calling MCP tools as it needs.

    The answer goes to standard output; reasoning, calls and results to standard error. Exit status: 0 when
    the model answered, 1 when it stopped otherwise (turn limit, repeated failures), 130 on Ctrl-C.

    \b
    Examples:
      shim run -m ollama:qwen2.5:7b -c mcp.json "What time is it in Tokyo?"
      shim run -m ./model.gguf --trace run.jsonl "Add 2 and 40"
      shim run -m replay:run.jsonl -c mcp.json "..."     # replay a recorded run
    """
    if prompt is None and stdin_is_terminal():
        raise click.UsageError('give a prompt: shim run "What time is it?" (or pipe it: echo ... | shim run -)')
    if prompt == "-" and stdin_is_terminal():
        Console(stderr=True).print("[dim]reading the prompt from the terminal; end it with Ctrl-D[/]")
    text = sys.stdin.read() if prompt is None or prompt == "-" else prompt
    if not text.strip():
        raise click.UsageError("give a prompt (an argument, or text on standard input)")
    settings = settings_from(model, config, dialect, max_turns, profile)
    settings = replace(settings, constrain=constrain) if constrain else settings
    options = GenerationOptions(temperature=temperature, max_tokens=max_tokens)
    try:
        code = anyio.run(_run, text, settings, options, one_call, trace, auto_approve, as_json, server_logs)
    except ShimError as exc:
        raise click.ClickException(redact(str(exc))) from None
    sys.exit(code)


async def _run(
    prompt: str,
    settings: Settings,
    options: GenerationOptions,
    one_call: bool,
    trace: Path | None,
    auto_approve: bool,
    as_json: bool,
    server_logs: bool,
) -> int:
    out, err = Console(), Console(stderr=True)
    approvals = Approvals(err, auto=auto_approve, interactive=sys.stdin.isatty())
    printer = Printer(out, err)
    end: AgentEnd | None = None
    lines = EventRedactor()  # --json: secrets split over several events are redacted too
    if not as_json:
        printer.waiting("starting the MCP servers…")
    try:
        async with open_agent(
            settings, approvals, server_logs=server_logs, options=options, one_call_per_turn=one_call, trace=trace
        ) as (agent, _):
            if not as_json:
                printer.waiting()
            async for event in agent.stream(prompt):
                if as_json:
                    for line, _ in lines.feed(event.to_dict()):
                        click.echo(json.dumps(line, ensure_ascii=False))
                else:
                    printer(event)
                    approvals.status = printer.status
                if isinstance(event, AgentEnd):
                    end = event
                if approvals.aborted:
                    err.print("[red]aborted[/]")
                    return 1
    finally:
        printer.stop_status()  # an error or Ctrl-C must not leave the spinner turning
    for line, _ in lines.flush():
        click.echo(json.dumps(line, ensure_ascii=False))
    return 0 if end is not None and end.reason == "answer" else 1
