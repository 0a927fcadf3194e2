"""What ``shim run`` and ``shim chat`` share: settings → backend + MCP router + agent, approval prompts,
and readable streaming output (the answer on stdout; reasoning, calls and results on stderr)."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import click
from rich.console import Console
from rich.markup import escape
from rich.status import Status

from shim.agent import Agent, AgentEnd, AgentEvent, ToolResultEvent, TurnEnd
from shim.backends import get_backend
from shim.backends.base import Backend
from shim.cli.files import check_input_file
from shim.cli.tools import server_log, server_log_path, server_notices
from shim.config import ServerConfig, resolve_config_path
from shim.errors import ConfigError, ShimError
from shim.events import ParseIssue, ReasoningDelta, TextDelta, ToolCallChunk, ToolCallEnd, ToolCallStart
from shim.profiles import detect_profile, get_profile
from shim.redact import StreamRedactor, redact
from shim.routing import ToolRouter
from shim.settings import Settings, resolve_settings
from shim.types import ToolCall, ToolSpec

NO_MODEL = (
    "no model given: pass --model SPEC (ollama:qwen2.5:7b, llama-cpp:PATH.gguf, a .gguf path, "
    'openai:MODEL@http://host:port/v1, replay:FILE), set SHIM_MODEL, or put "shim": {"model": ...} in the config'
)


def common_options(command: Any) -> Any:
    """The flags ``run`` and ``chat`` share (see `shim.settings` for how they combine with the rest)."""
    options = [
        click.option("--model", "-m", help="Backend spec; else $SHIM_MODEL, else the config's shim.model."),
        click.option("--config", "-c", help="MCP config (mcpServers JSON); else $SHIM_CONFIG, else the default path."),
        click.option(
            "--dialect",
            "-d",
            help="Call syntax taught to the model: function_call, tool_call, mistral, or a template file "
            "(default: the model profile's).",
        ),
        click.option(
            "--profile",
            help="Model family (see `shim profiles`); default: found from the model's name.",
        ),
        click.option("--max-turns", type=click.IntRange(min=1), help="Model turns before giving up (default 10)."),
        click.option("--one-call", is_flag=True, help="Stop generating as soon as one call block is complete."),
        click.option(
            "--trace",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Write every prompt, event and tool exchange to this JSONL file (secrets redacted).",
        ),
        click.option("--yes", "-y", "auto_approve", is_flag=True, help="Approve every tool call without asking."),
        click.option("--temperature", type=float, help="Sampling temperature."),
        click.option("--max-tokens", type=click.IntRange(min=1), help="Most tokens per model turn."),
        click.option("--server-logs", is_flag=True, help="Show what MCP servers write to stderr (else: a log file)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@dataclass
class Approvals:
    """Asks the person before a tool whose policy is ``ask``: yes / no / always for this tool / abort."""

    console: Console
    auto: bool = False
    interactive: bool = True
    always: set[str] = field(default_factory=set[str])
    aborted: bool = False
    status: Status | None = None
    server_of: Any = None

    async def __call__(self, call: ToolCall, spec: ToolSpec) -> bool:
        if self.auto or call.name in self.always:
            return True
        if self.aborted:
            return False
        if not self.interactive:
            self.console.print(f"[yellow]refused {call.name!r}: approval needed and no terminal to ask; use --yes[/]")
            return False
        server = self.server_of(call.name) if self.server_of else None
        if self.status is not None:
            self.status.stop()
        self.console.print(
            f"\n[bold]Allow[/] [cyan]{call.name}[/]"
            + (f" on server [cyan]{server}[/]" if server else "")
            + f" with {escape(redact(json.dumps(call.arguments, ensure_ascii=False)))}?"
        )
        answer = await anyio.to_thread.run_sync(
            lambda: click.prompt(
                "[y]es / [n]o / [a]lways for this tool / a[b]ort",
                default="n",
                type=click.Choice(["y", "n", "a", "b"]),
                show_choices=False,
                err=True,
            )
        )
        if answer == "a":
            self.always.add(call.name)
        if answer == "b":
            self.aborted = True
        return answer in ("y", "a")


class Printer:
    """Renders agent events for a person as they stream, secrets redacted (`shim.redact`): streamed text is
    held back only as long as it could still be the start of a secret."""

    def __init__(self, out: Console, err: Console, *, show_reasoning: bool = True) -> None:
        self.out, self.err = out, err
        self.show_reasoning = show_reasoning
        self.pending = 0
        self.status: Status | None = None
        self._waiting = False
        self._in_reasoning = False
        self._text = StreamRedactor()
        self._reasoning = StreamRedactor()

    def waiting(self, message: str = "generating…") -> None:
        """Show a spinner on stderr saying what is being waited for (a server starting, the model loading or
        generating) until the next event prints something."""
        self.stop_status()
        self.status = self.err.status(f"[dim]{escape(message)}[/]")
        self.status.start()
        self._waiting = True

    def __call__(self, event: AgentEvent) -> None:
        if self._waiting and self._shows(event):
            self._waiting = False
            self.stop_status()  # the spinner and streamed text must not share the terminal line
        match event:
            case TextDelta() if event.text:
                self._end_reasoning()
                self._write(self.out, self._text.feed(event.text))
            case ReasoningDelta() if event.text and self.show_reasoning:
                if not self._in_reasoning:
                    self.err.print("[dim italic]thinking: [/]", end="")
                    self._in_reasoning = True
                self._write(self.err, self._reasoning.feed(event.text), style="dim italic")
            case TextDelta() | ReasoningDelta():
                pass
            case ToolCallEnd():
                self._end_reasoning()
                self._end_text()
                self.pending += 1
                args = redact(json.dumps(event.arguments, ensure_ascii=False))
                self.err.print(f"\n[cyan]→ {event.name}[/] {escape(args[:300])}", highlight=False)
            case ParseIssue():
                self._end_text()
                message = escape(redact(event.message))
                self.err.print(f"\n[yellow]⚠ a tool call could not be used:[/] {message}", highlight=False)
            case TurnEnd() if self.pending:
                self.status = self.err.status(f"running {self.pending} tool call{'s' * (self.pending > 1)}…")
                self.status.start()
            case ToolResultEvent():
                self.pending -= 1
                if self.pending <= 0:
                    self.waiting()  # the results go back to the model: its next turn starts
                colour = "red" if event.result.is_error else "green"
                body = escape(redact(event.result.render(max_chars=400).replace("\n", " ")))
                self.err.print(f"[{colour}]← {event.call.name}[/] {body}", highlight=False)
            case AgentEnd():
                self.stop_status()
                self._end_reasoning()
                self._end_text()
                self.out.print()
                if event.reason != "answer":
                    self.err.print(f"[red]stopped ({event.reason}): {escape(redact(event.detail or ''))}[/]")
            case _:
                self._end_text()

    def _shows(self, event: AgentEvent) -> bool:
        """Whether ``event`` prints something (so a waiting spinner must give way)."""
        if isinstance(event, TextDelta):
            return bool(event.text)
        if isinstance(event, ReasoningDelta):
            return bool(event.text) and self.show_reasoning
        return not isinstance(event, (TurnEnd, ToolCallStart, ToolCallChunk))  # a call shows once complete

    def stop_status(self) -> None:
        self._waiting = False
        if self.status is not None:
            self.status.stop()
            self.status = None

    def _write(self, console: Console, text: str, *, style: str | None = None) -> None:
        if text:
            console.print(text, end="", style=style, markup=False, highlight=False, soft_wrap=True)

    def _end_text(self) -> None:
        self._write(self.out, self._text.flush())

    def _end_reasoning(self) -> None:
        if self._in_reasoning:
            self._write(self.err, self._reasoning.flush(), style="dim italic")
            self.err.print()
            self._in_reasoning = False


@asynccontextmanager
async def open_agent(
    settings: Settings,
    approvals: Approvals,
    *,
    server_logs: bool = False,
    servers: Sequence[ServerConfig] | None = None,
    backend: Backend | None = None,
    **agent_options: Any,
) -> AsyncGenerator[tuple[Agent, ToolRouter | None], None]:
    """Start the MCP servers (``servers``, else those of the config file, if it exists) and build the agent.

    Raises:
        ShimError: no model, a bad model spec, or a bad config.
    """
    if backend is None:
        if not settings.model:
            raise ConfigError(NO_MODEL)
        backend = get_backend(settings.model)
    try:
        # Before the first turn: the engine's family and chat template count as well as the name.
        profile = (await detect_profile(backend, settings.model, override=settings.profile)).profile
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    options = agent_options.pop("options", None)
    agent_options = {
        "dialect": settings.dialect,
        "profile": profile,
        "options": profile.options(options),
        "max_turns": settings.max_turns,
        "constrain": settings.constrain,
        **agent_options,
    }
    try:
        if servers is None and not settings.config_path.exists() and not settings.config_explicit:
            approvals.console.print(f"[dim]no MCP config at {settings.config_path}; running without tools[/]")
            yield Agent(backend, None, **agent_options), None
            return
        log_path = server_log_path()
        with server_log(server_logs) as errlog, server_notices(approvals.console):
            if servers is None:
                router = ToolRouter.from_config(settings.mcp_config(), approver=approvals, errlog=errlog)
            else:
                router = ToolRouter(servers, approver=approvals, errlog=errlog)
            approvals.server_of = router.server_of
            async with router:
                for server, reason in router.failures.items():
                    approvals.console.print(
                        f"[yellow]server {server!r} is unavailable: {escape(reason)} (see {log_path})[/]",
                        soft_wrap=True,
                    )
                yield Agent(backend, router, **agent_options), router
    finally:
        await backend.aclose()


def settings_from(
    model: str | None, config: str | None, dialect: str | None, max_turns: int | None, profile: str | None = None
) -> Settings:
    """The command's settings, with its input files checked now: a named pipe or a bad recording is a bad
    argument (exit 2), not a hang or a failure mid-run."""
    check_input_file(resolve_config_path(config), param="--config", what="config file")
    try:
        if profile is not None:
            get_profile(profile)  # a typo fails here, before any server starts
        settings = resolve_settings(config=config, model=model, dialect=dialect, max_turns=max_turns, profile=profile)
    except (ShimError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    if settings.model is not None and settings.model.startswith("replay:"):
        check_input_file(settings.model.removeprefix("replay:"), param="--model", what="replay file")
        try:
            get_backend(settings.model)
        except ConfigError as exc:
            raise click.BadParameter(str(exc), param_hint="--model") from None
    return settings
