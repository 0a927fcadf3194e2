"""``shim prompt``: print the system prompt a model without native tool calling would get for some tools."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from shim.cli.files import check_input_file
from shim.profiles import find_profile
from shim.prompting import DIALECTS, render_system_prompt
from shim.prompting._json import is_arr, is_obj
from shim.types import ToolSpec, tool_specs

__all__ = ["prompt"]


def load_tools(path: Path) -> list[ToolSpec]:
    """Read a JSON list of tools (MCP ``tools/list`` entries or OpenAI function tools, mixed freely).

    A ``tools/list`` result object (``{"tools": [...]}``) works too.

    Raises:
        click.BadParameter: the file is unreadable, not JSON, not a list, or an entry is not a tool.
    """
    check_input_file(path, param="--tools")
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise click.BadParameter(f"cannot read {str(path)!r}: {exc.strerror or exc}", param_hint="--tools") from None
    except UnicodeDecodeError as exc:
        raise click.BadParameter(f"{str(path)!r} is not UTF-8 text: {exc.reason}", param_hint="--tools") from None
    except (ValueError, RecursionError) as exc:
        raise click.BadParameter(f"{str(path)!r} is not valid JSON: {exc}", param_hint="--tools") from None
    if is_obj(data) and "tools" in data:
        data = data["tools"]
    if not is_arr(data):
        raise click.BadParameter(
            f"{str(path)!r} must hold a JSON list of tools (MCP or OpenAI form), not {type(data).__name__}",
            param_hint="--tools",
        )
    for n, entry in enumerate(data):
        if not (isinstance(entry, str) or is_obj(entry)):
            raise click.BadParameter(
                f"{str(path)!r}, tool #{n}: expected an object, got {json.dumps(entry)}", param_hint="--tools"
            )
    try:
        return tool_specs(data)
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(f"{str(path)!r}, {exc}", param_hint="--tools") from None


def _tool_choice(value: str) -> str | Mapping[str, Any]:
    if value.lstrip().startswith("{"):
        try:
            choice: Any = json.loads(value)
        except ValueError as exc:
            raise click.BadParameter(f"not valid JSON: {exc}", param_hint="--tool-choice") from None
        if not is_obj(choice):
            raise click.BadParameter("must be a mode, a tool name or a JSON object", param_hint="--tool-choice")
        return choice
    return value


@click.command()
@click.option(
    "--tools",
    "tools_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help='JSON list of tools: MCP tools/list entries or OpenAI {"type": "function", ...} tools.',
)
@click.option(
    "--dialect",
    "-d",
    default=None,
    metavar="NAME|FILE",
    help=f"How the model should write calls ({', '.join(sorted(DIALECTS))}), or the path of your own "
    "Jinja2 template (written like prompts/function_call.j2). Default: the model profile's (function_call).",
)
@click.option(
    "--model", "-m", "model", metavar="SPEC", help="Show the prompt this model gets (its profile picks the dialect)."
)
@click.option("--profile", metavar="NAME", help="Use this model profile (see `shim profiles`) instead of --model's.")
@click.option(
    "--compact/--full",
    default=None,
    help="One-line signatures, or full parameter lists. Default: compact above 20 tools.",
)
@click.option(
    "--tool-choice",
    "tool_choice",
    default="auto",
    show_default=True,
    metavar="MODE|NAME|JSON",
    help="auto, none (no tools in the prompt), required, a tool's name, or an OpenAI tool_choice object.",
)
@click.option("--system", "-s", default=None, help="Your own system message; the tool prompt is added after it.")
@click.option("--stats", is_flag=True, help="Also print the prompt's size to standard error.")
def prompt(
    tools_file: Path,
    dialect: str | None,
    model: str | None,
    profile: str | None,
    compact: bool | None,
    tool_choice: str,
    system: str | None,
    stats: bool,
) -> None:
    """Print the system prompt that teaches a model to call the tools in a JSON file.

    \b
    Examples:
      shim prompt --tools tools.json
      shim prompt --tools tools.json --dialect tool_call --compact
      shim prompt --tools tools.json --tool-choice get_current_time --system "Be brief."
      shim prompt --tools tools.json --model ollama:qwen2.5:7b      # the prompt a Qwen gets
    """
    tools = load_tools(tools_file)
    try:
        found = find_profile(model, override=profile)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if model or profile:
        click.echo(f"profile {found.name!r}: dialect {found.dialect!r}", err=True)
    dialect = dialect or found.dialect
    try:
        text = render_system_prompt(
            tools, dialect=dialect, compact=compact, tool_choice=_tool_choice(tool_choice), system=system
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(text, nl=not text.endswith("\n"))
    if stats:
        click.echo(f"{len(tools)} tools, {len(text)} characters, {len(text.split())} words", err=True)
