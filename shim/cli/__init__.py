"""The ``shim`` command line: thin verbs over the library; every piece of logic lives in the modules.

Commands load lazily (``_COMMANDS`` maps a verb to ``module:attribute``), so ``shim --help`` stays fast and a
verb whose optional dependencies are missing fails with an install hint instead of breaking the others.
Ctrl-C anywhere (loading a verb, starting servers, generating) ends with one line and exit status 130.
"""

from __future__ import annotations

import difflib
import importlib
import sys
from typing import Any, NoReturn

import click

from shim.__about__ import __version__

__all__ = ["main"]

# verb -> (module:attribute, one-line help shown by `shim --help`)
_COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("shim.cli.demo:demo", "See shim work offline: a tiny trained model calls a demo MCP server's tools."),
    "parse": ("shim.cli.parse:parse", "Parse raw model output into text, reasoning and tool calls."),
    "run": ("shim.cli.run:run", "Run one task: the model answers a prompt, calling MCP tools as it needs."),
    "chat": ("shim.cli.chat:chat", "Talk with the model interactively; it calls MCP tools as it needs."),
    "tools": ("shim.cli.tools:tools", "List the tools of every configured MCP server."),
    "call": ("shim.cli.call:call", "Run one real MCP tools/call and print the result."),
    "bench": ("shim.cli.bench:bench", "Benchmark tool-call parsing on malformed streams against baselines."),
    "profiles": (
        "shim.cli.profiles:profiles",
        "List model profiles: each family's call format and detection rule.",
    ),
    "prompt": ("shim.cli.prompt:prompt", "Print the system prompt that teaches a model to call some tools."),
    "serve": ("shim.cli.serve:serve", "Serve models to OpenAI, Anthropic and Ollama clients, with tool calling."),
}


INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report it."""


def interrupted() -> NoReturn:
    """End the command after Ctrl-C: one line on standard error, exit status 130."""
    click.echo("\ninterrupted", err=True)
    sys.exit(INTERRUPTED)


def _is_interrupt(exc: BaseException) -> bool:
    """Ctrl-C, as Python raises it, as click wraps it (`click.Abort`) or inside an exception group."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, click.Abort):
        return isinstance(exc.__context__, KeyboardInterrupt)
    group: Any = getattr(exc, "exceptions", None)
    return isinstance(group, tuple) and any(_is_interrupt(e) for e in group)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]


class _LazyGroup(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        # click would print "Aborted!" and exit 1; a person who pressed Ctrl-C expects 130 and one line.
        try:
            return super().invoke(ctx)
        except BaseException as exc:
            if _is_interrupt(exc):
                interrupted()
            raise

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in _COMMANDS and name not in self.commands:
            close = difflib.get_close_matches(name, [*_COMMANDS, *self.commands], n=1, cutoff=0.6)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise click.UsageError(f"No such command {name!r}.{hint}", ctx)
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in _COMMANDS:
            return super().get_command(ctx, cmd_name)
        target, _ = _COMMANDS[cmd_name]
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            if exc.name is None or exc.name.split(".")[0] == "shim":
                raise  # shim's own code is broken: not a missing extra, so don't hide it behind an install hint
            missing = exc.name
            raise click.ClickException(
                f"'shim {cmd_name}' needs the optional package {missing!r}: pip install 'shim[all]'"
            ) from exc
        command: click.Command = getattr(module, attr)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text comes from the table so listing commands imports none of them.
        rows = [(name, _COMMANDS[name][1]) for name in sorted(_COMMANDS)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="shim")
def main(**_: Any) -> None:
    """Give tool use to language models that have none.

    shim puts MCP tool definitions into the prompt, parses the tool calls the model writes as text out of
    its token stream, runs them as real MCP tools/call requests and feeds the results back.
    """
