"""``shim chat``: an interactive session; the model calls MCP tools as it needs."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from anyio.from_thread import start_blocking_portal
from rich.console import Console
from rich.markup import escape

from shim.agent import Agent
from shim.backends.base import GenerationOptions
from shim.cli import interrupted
from shim.cli.session import Approvals, Printer, common_options, open_agent, settings_from
from shim.errors import ShimError
from shim.redact import redact
from shim.routing import ToolRouter

HELP = """commands:
  /help    this list
  /tools   list the tools the model can call
  /reset   forget the conversation
  /history show the conversation so far
  /exit    leave (Ctrl-D too; Ctrl-C stops the current answer, or leaves at the prompt)"""


@click.command()
@common_options
@click.option(
    "--constrain",
    type=click.Choice(["auto", "on", "off"]),
    help="Generate calls under a grammar of the offered tools: auto (default; where the backend can), on, off.",
)
def chat(
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
) -> None:
    """Talk with the model; it calls your MCP tools as it needs.

    Type /help for the commands. Ctrl-C stops the current answer (the conversation so far is kept);
    Ctrl-D or /exit leaves (exit status 0), Ctrl-C at the prompt too (130).

    \b
    Example:
      shim chat -m ollama:qwen2.5:7b -c mcp.json
    """
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  # pyright: ignore[reportUnusedImport]  # line editing and history for input()
    settings = settings_from(model, config, dialect, max_turns, profile)
    settings = replace(settings, constrain=constrain) if constrain else settings
    out, err = Console(), Console(stderr=True)
    approvals = Approvals(err, auto=auto_approve)
    printer = Printer(out, err)
    options = GenerationOptions(temperature=temperature, max_tokens=max_tokens)
    left_with_ctrl_c = False
    try:
        # The event loop (MCP servers, the model) lives in a portal thread; this thread reads the keyboard,
        # so Ctrl-C can cancel one answer without tearing the servers down.
        with start_blocking_portal() as portal:
            session = open_agent(
                settings, approvals, server_logs=server_logs, options=options, one_call_per_turn=one_call, trace=trace
            )
            printer.waiting("starting the MCP servers…")
            with portal.wrap_async_context_manager(session) as (agent, router):
                printer.stop_status()
                count = len(router.tools) if router else 0
                err.print(f"[dim]shim chat · {escape(redact(settings.model or ''))} · {count} tools · /help[/]")
                left_with_ctrl_c = chat_loop(portal, agent, router, printer, approvals, out, err)
    except ShimError as exc:
        raise click.ClickException(redact(str(exc))) from None
    finally:
        printer.stop_status()  # an error or Ctrl-C must not leave the spinner turning
    if left_with_ctrl_c:
        interrupted()  # after the servers are shut down


def chat_loop(
    portal: Any, agent: Agent, router: Any, printer: Printer, approvals: Approvals, out: Console, err: Console
) -> bool:
    """Read lines until /exit, Ctrl-D (False) or Ctrl-C at the prompt (True: the caller exits 130)."""
    while True:
        try:
            line = out.input("[bold green]you>[/] ").strip()
        except EOFError:
            out.print()
            return False
        except KeyboardInterrupt:
            return True
        if not line:
            continue
        if line.startswith("/"):
            if _command(line, agent, router, out) == "exit":
                return False
            continue

        async def turn(text: str = line) -> None:
            printer.waiting()
            async for event in agent.stream(text):
                printer(event)
                approvals.status = printer.status

        future = portal.start_task_soon(turn)
        try:
            future.result()
        except KeyboardInterrupt:
            future.cancel()
            concurrent.futures.wait([future])
            printer.stop_status()
            err.print("\n[yellow]stopped; the conversation so far is kept[/]")
        except concurrent.futures.CancelledError:
            printer.stop_status()
        except ShimError as exc:
            printer.stop_status()
            err.print(f"[red]{escape(redact(str(exc)))}[/]")


def _command(line: str, agent: Agent, router: ToolRouter | None, out: Console) -> str | None:
    name = line.split()[0].lower()
    if name in ("/exit", "/quit"):
        return "exit"
    if name == "/reset":
        agent.reset()
        out.print("[dim]conversation cleared[/]")
    elif name == "/tools":
        tools = router.tools if router else []
        if not tools:
            out.print("[dim]no tools (pass --config with MCP servers)[/]")
        for tool in tools:
            server = router.server_of(tool.name) if router else None
            summary = tool.description.splitlines()[0] if tool.description else ""
            out.print(f"[cyan]{tool.name}[/] [dim]({server})[/] {summary}")
    elif name == "/history":
        for message in agent.messages:
            out.print(redact(json.dumps(message, ensure_ascii=False))[:500], markup=False, highlight=False)
    elif name == "/help":
        out.print(HELP, markup=False)
    else:
        out.print(f"unknown command {name!r}; {HELP}", markup=False, highlight=False)
    return None
