"""``shim parse``: run raw model output through the streaming parser, as a stream would deliver it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, cast

import click

from shim.cli.files import check_input_file, stdin_is_terminal
from shim.events import Event, ParseResult
from shim.parsing.stream import StreamParser
from shim.types import ToolSpec, tool_specs


def _load_tools(path: Path | None) -> list[ToolSpec]:
    if path is None:
        return []
    check_input_file(path, param="--tools")
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise click.BadParameter(f"cannot read tools from {str(path)!r}: {exc}", param_hint="--tools") from None
    tools: Any = cast("dict[str, Any]", data).get("tools", data) if isinstance(data, dict) else data
    if not isinstance(tools, list):
        raise click.BadParameter(
            f"{str(path)!r} must hold a JSON list of tools (names or definitions)", param_hint="--tools"
        )
    try:
        return tool_specs(cast("list[Any]", tools))
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(f"{str(path)!r}, {exc}", param_hint="--tools") from None


def _read_source(source: str | None) -> str:
    """The text to parse: a file, or standard input (``-``, or no SOURCE when input is piped)."""
    if source is None and stdin_is_terminal():
        raise click.UsageError(
            "give the model output to parse: a FILE, or pipe it in (echo '...' | shim parse); - reads the terminal"
        )
    if source in (None, "-"):
        if stdin_is_terminal():
            click.echo("reading model output from the terminal; end it with Ctrl-D", err=True)
        return sys.stdin.read()
    check_input_file(source, param="SOURCE")
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(f"cannot read {source!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise click.BadParameter(
            f"{source!r} is not UTF-8 text (byte {exc.start} is {exc.object[exc.start : exc.start + 1]!r})",
            param_hint="SOURCE",
        ) from None


@click.command()
@click.argument("source", required=False, type=click.Path(allow_dash=True, dir_okay=False, path_type=str))
@click.option(
    "--chunk-size",
    "-n",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Feed the text in chunks of N characters, as a token stream would.",
)
@click.option("--events", "-e", is_flag=True, help="Print every event as one JSON object per line.")
@click.option(
    "--tools",
    "tools_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="JSON list of the tools the model was offered (names or MCP/OpenAI definitions); "
    "untagged JSON counts as a call only when it names one of them.",
)
def parse(source: str | None, chunk_size: int, events: bool, tools_file: Path | None) -> None:
    """Parse raw model output from SOURCE (a file, or - for standard input; piped input when omitted).

    Prints {"text", "calls", "errors", "reasoning"} as JSON, or with --events one event per line.

    \b
    Example:
      echo 'Sure. <function_call>{"name": "get_time", "arguments": {}}</function_call>' | shim parse
    """
    text = _read_source(source)
    parser = StreamParser(_load_tools(tools_file))
    collected: list[Event] = []
    for start in range(0, len(text), chunk_size):
        for event in parser.feed(text[start : start + chunk_size]):
            collected.append(event)
            if events:
                click.echo(json.dumps(event.to_dict(), ensure_ascii=False))
    for event in parser.close():
        collected.append(event)
        if events:
            click.echo(json.dumps(event.to_dict(), ensure_ascii=False))
    if not events:
        click.echo(json.dumps(ParseResult.from_events(collected).to_dict(), ensure_ascii=False, indent=2))
