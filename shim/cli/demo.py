"""``shim demo``: the whole pipeline offline, with a tiny model this project trained and a demo MCP server."""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

if TYPE_CHECKING:
    from shim.agent import AgentEnd, ToolResultEvent
    from shim.backends.base import Backend, GenerationOptions
    from shim.cli.session import Approvals
    from shim.settings import Settings

# Everything heavy (the agent, the MCP SDK, llama.cpp) is imported inside the command, after a spinner is
# on the screen: a person who types `shim demo` sees it working from the first second.


def _options() -> GenerationOptions:
    """Greedy and seeded: the demo shows the same run on every machine."""
    from shim.backends.base import GenerationOptions

    return GenerationOptions(temperature=0.0, seed=0, max_tokens=200)


@dataclass
class _Outcome:
    request: str
    expected: str
    arguments: dict[str, Any]
    calls: list[ToolResultEvent]
    end: AgentEnd | None

    @property
    def verdict(self) -> str:
        """``ok`` only for the expected tool with the expected arguments, a result, and an answer."""
        if self.end is None or self.end.reason != "answer" or not self.calls:
            return "no answer" if self.calls else "no call"
        if any(r.result.is_error for r in self.calls):
            return "tool error"
        if not any(r.call.name == self.expected for r in self.calls):
            return "wrong tool"
        if not any(r.call.name == self.expected and r.call.arguments == self.arguments for r in self.calls):
            return "wrong arguments"
        return "ok"


@click.command()
@click.option("--chat", "interactive", is_flag=True, help="Talk with the demo model yourself instead of the script.")
@click.option("--model", "-m", help="Another backend spec to try on the demo tools (default: the shipped tiny model).")
@click.option("--trace", type=click.Path(dir_okay=False, path_type=Path), help="Write a JSONL trace of the run.")
@click.option("--server-logs", is_flag=True, help="Show what the demo server writes to stderr.")
@click.option("--verbose", "-v", is_flag=True, help="Show llama.cpp's own log lines (model loading, context sizes).")
@click.option(
    "--constrain",
    type=click.Choice(["auto", "on", "off"]),
    default="auto",
    show_default=True,
    help="Generate calls under a grammar of the demo tools (auto: where the backend can; off: the model alone).",
)
def demo(
    interactive: bool, model: str | None, trace: Path | None, server_logs: bool, verbose: bool, constrain: str
) -> None:
    """See shim give tool use to a model that has none, offline, in seconds.

    A tiny language model trained by this project (shipped inside the package, run by the embedded
    llama.cpp engine) answers a few requests. Its output streams through shim's parser, its tool calls
    become real MCP tools/call requests to a demo server (calculator, clock, unit converter, key-value
    store), and the results go back to it for the final answer. Exit status 0 when every request ended in
    the right call (tool and arguments), a successful result and an answer.

    \b
    Examples:
      shim demo
      shim demo --chat
      shim demo -m ollama:qwen2.5:7b      # the same requests with your own model
    """
    err = Console(stderr=True)
    with err.status("[dim]starting shim…[/]"):
        from shim.demo import model_path
        from shim.errors import ShimError
        from shim.settings import Settings

        spec = model or f"llama-cpp:{model_path()}"
        settings = Settings(
            model=spec,
            dialect="function_call",
            max_turns=4,
            config_path=Path("demo"),
            config_explicit=True,
            constrain=constrain,
        )
        try:
            backend = _backend(spec, shipped=model is None, verbose=verbose)
        except ShimError as exc:
            raise click.ClickException(str(exc)) from None
    try:
        if interactive:
            if _chat(settings, backend, trace, server_logs):
                from shim.cli import interrupted

                interrupted()
            return
        import anyio

        code = anyio.run(_scripted, settings, backend, trace, server_logs)
    except ShimError as exc:
        raise click.ClickException(str(exc)) from None
    sys.exit(code)


def _backend(spec: str, *, shipped: bool, verbose: bool) -> Backend:
    """The demo's model. The shipped one gets the context it was trained with (a longer one only makes
    llama.cpp warn about overflowing it), and llama.cpp's own log lines stay hidden unless ``--verbose``."""
    from shim.backends import get_backend
    from shim.cli.files import check_input_file

    if spec.startswith("replay:"):
        check_input_file(spec.removeprefix("replay:"), param="--model", what="replay file")
    if shipped:
        _quiet_llama_cpp(verbose)
        return get_backend(spec, n_ctx=0)
    return get_backend(spec)


_log_callbacks: list[Any] = []
"""The C callbacks handed to llama.cpp: ctypes calls them from C, so they must outlive the call that set them."""


def _quiet_llama_cpp(verbose: bool) -> None:
    """Route llama.cpp's log (context sizes, overflow warnings) to nowhere, or to stderr with ``--verbose``.

    llama-cpp-python's own filter lets some warnings through even with ``verbose=False``, so the demo
    replaces its log callback.
    """
    try:
        llama_cpp: Any = importlib.import_module("llama_cpp")
    except ImportError:
        return  # the backend says what to install
    set_log: Any = getattr(llama_cpp, "llama_log_set", None)
    callback_type: Any = getattr(llama_cpp, "llama_log_callback", None)
    if set_log is None or callback_type is None:
        return

    def write(level: int, text: bytes, user_data: Any) -> None:
        del level, user_data
        if verbose:
            sys.stderr.write(text.decode("utf-8", "replace"))

    callback = callback_type(write)
    _log_callbacks.append(callback)
    set_log(callback, None)


def _session(settings: Settings, backend: Backend, approvals: Approvals, trace: Path | None, server_logs: bool) -> Any:
    """The agent on the demo server (started over stdio) and the chosen model, greedy and seeded."""
    from shim.cli.session import open_agent
    from shim.demo import server_config

    return open_agent(
        settings,
        approvals,
        server_logs=server_logs,
        servers=[server_config()],
        backend=backend,
        options=_options(),
        trace=trace,
    )


async def _scripted(settings: Settings, backend: Backend, trace: Path | None, server_logs: bool) -> int:
    from shim.agent import AgentEnd, ToolResultEvent
    from shim.cli.session import Approvals, Printer
    from shim.demo import DEMO_REQUESTS

    out, err = Console(), Console(stderr=True)
    approvals = Approvals(err, auto=True)  # the demo server is a sandbox: nothing to protect
    printer = Printer(out, err)
    outcomes: list[_Outcome] = []
    err.print(f"[dim]model: {settings.model}\nserver: demo MCP server over stdio (python -m shim.demo.server)[/]")
    constrained = settings.constrain != "off" and backend.can_constrain
    err.print(f"[dim]calls: {'constrained to the offered tools (grammar)' if constrained else 'unconstrained'}[/]")
    printer.waiting("starting the demo MCP server…")
    try:
        async with _session(settings, backend, approvals, trace, server_logs) as (agent, _):
            await _load(backend, printer)
            for request in DEMO_REQUESTS:
                agent.reset()
                printer.stop_status()
                out.rule(f"[bold]{request.text}[/]")
                outcome = _Outcome(request.text, request.tool, dict(request.arguments), [], None)
                printer.waiting()
                async for event in agent.stream(request.text):
                    printer(event)
                    if isinstance(event, ToolResultEvent):
                        outcome.calls.append(event)
                    elif isinstance(event, AgentEnd):
                        outcome.end = event
                outcomes.append(outcome)
    finally:
        printer.stop_status()  # an error or Ctrl-C must not leave the spinner turning
    _summary(out, outcomes)
    return 0 if all(o.verdict == "ok" for o in outcomes) else 1


async def _load(backend: Backend, printer: Any) -> None:
    """Load an embedded model now, under its own spinner, so the first answer's wait is not a mystery."""
    from shim.backends.llamacpp import LlamaCppBackend

    if isinstance(backend, LlamaCppBackend):
        printer.waiting(f"loading {backend.description}…")
        await backend.model()


def _summary(out: Console, outcomes: list[_Outcome]) -> None:
    from rich.table import Table

    table = Table(title="shim demo", show_lines=False)
    for column in ("request", "tool call", "result", ""):
        table.add_column(column, overflow="fold")
    for o in outcomes:
        call = "; ".join(f"{r.call.name}({json.dumps(r.call.arguments, ensure_ascii=False)})" for r in o.calls) or "-"
        result = "; ".join(r.result.render(max_chars=60).replace("\n", " ") for r in o.calls) or "-"
        colour = "green" if o.verdict == "ok" else "red"
        table.add_row(o.request, call, result, f"[{colour}]{o.verdict}[/]")
    out.print(table)
    passed = sum(o.verdict == "ok" for o in outcomes)
    out.print(f"{passed}/{len(outcomes)} requests: the right tool with the right arguments, its result, an answer.")


def _chat(settings: Settings, backend: Backend, trace: Path | None, server_logs: bool) -> bool:
    """Talk with the demo model; True when the person left with Ctrl-C."""
    from anyio.from_thread import start_blocking_portal

    from shim.cli.chat import chat_loop
    from shim.cli.session import Approvals, Printer

    out, err = Console(), Console(stderr=True)
    approvals = Approvals(err, auto=True)
    printer = Printer(out, err)
    session = _session(settings, backend, approvals, trace, server_logs)
    printer.waiting("starting the demo MCP server…")
    try:
        with start_blocking_portal() as portal, portal.wrap_async_context_manager(session) as (agent, router):
            portal.call(_load, backend, printer)
            printer.stop_status()
            err.print("[dim]shim demo --chat · try: What is 12 times 9? · Convert 5 km to miles. · /help[/]")
            return chat_loop(portal, agent, router, printer, approvals, out, err)
    finally:
        printer.stop_status()  # an error or Ctrl-C must not leave the spinner turning
