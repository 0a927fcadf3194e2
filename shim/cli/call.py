"""``shim call``: run one real MCP ``tools/call`` and print the result, as the model would get it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO, cast

import anyio
import anyio.to_thread
import click
from rich.console import Console

from shim.cli.tools import config_option, load_or_fail, server_log, server_logs_option
from shim.ids import IdGenerator
from shim.routing import ToolRouter
from shim.types import ToolCall, ToolResult, ToolSpec

__all__ = ["call"]

_MAX_TIMEOUT = 7 * 24 * 3600.0
"""A week: a longer wait is a typo (or infinity, which the clocks underneath cannot hold)."""


_MAX_DEPTH = 100
"""Arguments deeper than this are no tool's input; refusing them here keeps every later step (schema
validation, redaction, printing) clear of Python's recursion limit."""


def _depth(value: Any) -> int:
    """How deeply ``value`` (decoded JSON) nests, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > _MAX_DEPTH:
            break
        children = cast(
            "Iterable[Any]", item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        stack.extend((child, depth + 1) for child in children)  # pyright: ignore[reportUnknownVariableType]
    return deepest


@click.command("call")
@config_option
@click.argument("tool")
@click.argument("arguments", metavar="'JSON-ARGS'", default="{}")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True, max=_MAX_TIMEOUT),
    default=60.0,
    show_default=True,
    help="Seconds to wait for the answer before cancelling the call.",
)
@click.option("-y", "--yes", is_flag=True, help="Approve the call without asking, where the policy says ask.")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the whole result as JSON (content blocks, structured content)."
)
@server_logs_option
def call(
    config_path: Path | None,
    tool: str,
    arguments: str,
    timeout: float,
    yes: bool,
    as_json: bool,
    server_logs: bool,
) -> None:
    """Call TOOL with JSON-ARGS (a JSON object) on the server that offers it and print the result.

    TOOL is a name from `shim tools`. Exits with status 1 if the call failed or the tool reported an error.

    \b
    Examples:
      shim call get_current_time '{"timezone": "Europe/Paris"}'
      shim call --config mcp.json --json get-structured-content '{"location": "Chicago"}'
    """
    try:
        parsed: Any = json.loads(arguments)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(
            f'not valid JSON ({exc.msg} at column {exc.colno}); quote it like \'{{"key": "value"}}\'',
            param_hint="'JSON-ARGS'",
        ) from None
    except RecursionError:
        raise click.BadParameter("nested too deeply to read as JSON", param_hint="'JSON-ARGS'") from None
    if _depth(parsed) > _MAX_DEPTH:
        raise click.BadParameter(f"nested deeper than {_MAX_DEPTH} levels", param_hint="'JSON-ARGS'")
    if not isinstance(parsed, dict):
        raise click.BadParameter(f"must be a JSON object, not {type(parsed).__name__}", param_hint="'JSON-ARGS'")
    config = load_or_fail(config_path)
    errors = Console(stderr=True, highlight=False)

    async def approve(c: ToolCall, spec: ToolSpec) -> bool:
        if yes:
            return True
        if not sys.stdin.isatty():
            errors.print(f"{c.name!r} needs approval: pass --yes to run it without a terminal")
            return False
        question = f"Run {c.name!r} with {json.dumps(c.arguments)}?"
        return await anyio.to_thread.run_sync(lambda: click.confirm(question, err=True))

    async def progress(c: ToolCall, done: float, total: float | None, message: str | None) -> None:
        errors.print(f"[dim]progress {done:g}{f'/{total:g}' if total else ''} {message or ''}[/dim]")

    async def run(errlog: TextIO) -> ToolResult:
        async with ToolRouter(config.servers, approver=approve, timeout=timeout, errlog=errlog) as r:
            for why in r.failures.values():
                errors.print(f"[yellow]warning:[/yellow] {why}")
            tool_call = ToolCall(id=IdGenerator()(), name=tool, arguments=cast("dict[str, Any]", parsed))
            return await r.call(tool_call, on_progress=progress)

    with server_log(server_logs) as errlog:
        result = anyio.run(run, errlog)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        click.echo(result.render(max_chars=None))
    if result.is_error:
        sys.exit(1)
