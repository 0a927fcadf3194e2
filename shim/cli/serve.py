"""``shim serve``: run the OpenAI-, Anthropic- and Ollama-compatible server."""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import tempfile
from functools import partial
from pathlib import Path

import click

from shim.errors import ConfigError, ShimError
from shim.server.app import APP_ENV, ServerSettings, app_environment, create_app
from shim.server.chat import LoopSettings
from shim.server.models import parse_model_option
from shim.settings import resolve_settings


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option(
    "--port", "-p", default=8080, show_default=True, type=click.IntRange(0, 65535), help="0 picks a free one."
)
@click.option(
    "--model",
    "-m",
    "models",
    multiple=True,
    metavar="NAME=SPEC",
    help="A model to offer: NAME=SPEC, or a bare SPEC offered under its own name. Repeatable. "
    "Default: $SHIM_MODEL or the config's shim.model.",
)
@click.option("--config", "-c", help="MCP config: the server runs these tools itself (MCP-executing mode).")
@click.option("--api-key", envvar="SHIM_API_KEY", help="Require 'Authorization: Bearer KEY' (or set SHIM_API_KEY).")
@click.option(
    "--cors", "cors", multiple=True, metavar="ORIGIN", help="Allow browser calls from ORIGIN (repeatable; *)."
)
@click.option(
    "--dialect",
    help="Call syntax taught to every model: function_call, tool_call, mistral, or a template "
    "(default: each model's profile's).",
)
@click.option(
    "--profile",
    "profiles",
    multiple=True,
    metavar="[ALIAS=]NAME",
    help="Model profile (see `shim profiles`) for one model, or NAME alone for every model. Repeatable. "
    "Default: the config's shim.profile, else detected from each model's name, engine family and chat template.",
)
@click.option("--max-turns", type=click.IntRange(min=1), help="Model turns per request, tool rounds included.")
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="Accept requests whose Host is NAME (repeatable; *.example.com for subdomains; * for any). "
    "localhost, IP addresses and this machine's name are always accepted; other names are refused "
    "(DNS rebinding).",
)
@click.option(
    "--max-request-bytes",
    "--max-body",
    "max_body",
    default=16 * 1024 * 1024,
    show_default=True,
    type=click.IntRange(min=1024),
    help="Largest request body, in bytes.",
)
@click.option(
    "--max-messages",
    default=10_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Most messages one request may carry.",
)
@click.option(
    "--request-timeout",
    default=15.0,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds a client has to send its request headers, and again its body.",
)
@click.option(
    "--write-timeout",
    default=30.0,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds a client may leave a response unread before its connection is closed and its generation stopped.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(min=1),
    help="Most client connections open at once (per worker); more are closed at once. "
    "Default: the file-descriptor limit (ulimit -n) less 64.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Worker processes sharing the port. With more than one, tool rounds go to a SQLite file (or --state).",
)
@click.option(
    "--state",
    metavar="URL",
    help="Where MCP-executing mode keeps tool rounds between requests: sqlite:PATH, or redis://HOST:PORT/DB "
    "for several hosts. Default: memory (one worker), a temporary SQLite file (several).",
)
@click.option(
    "--any-model",
    metavar="DIR",
    type=click.Path(exists=True, file_okay=False),
    help="Let requests name backend specs for model files in DIR (replay:, llama-cpp:) and ollama:MODEL.",
)
@click.option(
    "--constrain", type=click.Choice(["auto", "on", "off"]), help="Calls under a grammar: auto (default), on, off."
)
@click.option(
    "--insecure",
    is_flag=True,
    help="Start even though --cors '*' or --allowed-host '*' without --api-key lets any web page run the "
    "MCP tools of --config.",
)
@click.option(
    "--log-level", default="info", show_default=True, type=click.Choice(["debug", "info", "warning", "error"])
)
def serve(
    host: str,
    port: int,
    models: tuple[str, ...],
    config: str | None,
    api_key: str | None,
    cors: tuple[str, ...],
    dialect: str | None,
    profiles: tuple[str, ...],
    max_turns: int | None,
    allowed_hosts: tuple[str, ...],
    max_body: int,
    max_messages: int,
    request_timeout: float,
    write_timeout: float,
    max_connections: int | None,
    workers: int,
    state: str | None,
    any_model: str | None,
    constrain: str | None,
    insecure: bool,
    log_level: str,
) -> None:
    """Serve models as an OpenAI-, Anthropic- and Ollama-compatible provider with tool calling.

    Clients (the openai, anthropic and ollama libraries, Claude Code, Codex, LangChain, Open WebUI...) send
    their tools as usual; shim writes them into the prompt and turns the calls the model writes as text into
    real tool_calls. With --config, the server also runs MCP tools itself and streams the final answer.

    \b
    Examples:
      shim serve -m qwen=ollama:qwen2.5:7b
      shim serve -m tiny=llama-cpp:./model.gguf -m ollama:llama3.2 --config mcp.json
      shim serve -m qwen=ollama:qwen2.5:7b --host 0.0.0.0 --api-key "$KEY"
      shim serve -m qwen=openai:qwen@http://vllm:8000/v1 --host 0.0.0.0 --workers 4 \\
          --state redis://redis:6379/0 --allowed-host shim.example.com --api-key "$KEY"
    """
    from shim.server.transport import serve_socket, uvicorn_config  # the serve extra: keeps `shim --help` fast

    work_dir = tempfile.TemporaryDirectory(prefix="shim-serve-") if workers > 1 else None
    try:
        try:
            settings = resolve_settings(config=config, dialect=dialect, max_turns=max_turns)
            table = dict(parse_model_option(m) for m in models)
            if not table and settings.model:
                table = {settings.model: settings.model}
            config_path = settings.config_path if settings.config_explicit else None
            if work_dir is not None and state is None:
                state = f"sqlite:{Path(work_dir.name) / 'rounds.sqlite3'}"
            server_settings = ServerSettings(
                api_key=api_key or None,
                cors_origins=cors,
                allowed_hosts=allowed_hosts,
                max_body=max_body,
                max_messages=max_messages,
                request_timeout=request_timeout,
                any_model=any_model,
                state=state,
                profiles=_profile_table(profiles, settings.profile),
                insecure=insecure,
                loop=LoopSettings(
                    dialect=settings.dialect,
                    max_turns=settings.max_turns,
                    constrain=constrain or settings.constrain,
                ),
            )
            # Built even with workers (which build their own): a bad option or file is one line, before the banner.
            app = create_app(table, config=config_path, settings=server_settings)
        except (ShimError, OSError, UnicodeDecodeError) as exc:
            where = f"--config {config!r}: " if config and not isinstance(exc, ShimError) else ""
            click.echo(f"Error: {where}{exc}", err=True)
            raise SystemExit(2) from None
        sock = _bind(host, port)
        _banner(host, sock.getsockname()[1], table, config_path, api_key, workers, state)
        if not _loopback(host) and not allowed_hosts:
            click.echo(
                f"  note: requests must name this server by IP address or as {socket.gethostname()!r}; "
                "add --allowed-host NAME for a DNS name"
            )
        logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
        limits = partial(
            uvicorn_config,
            request_timeout=request_timeout,
            write_timeout=write_timeout,
            max_connections=max_connections,
            log_level=log_level,
        )
        if work_dir is None:
            serve_socket(limits(app), sock)
            return
        metrics_dir = Path(work_dir.name) / "metrics"
        metrics_dir.mkdir()
        # Read by each worker as it starts (the spawned processes inherit the environment).
        os.environ[APP_ENV] = app_environment(table, config=config_path, settings=server_settings, log_level=log_level)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
        factory = "shim.server.app:app_from_environment"
        serve_socket(limits(factory, workers=workers, factory=True), sock)
    finally:
        if work_dir is not None:
            work_dir.cleanup()


def _profile_table(options: tuple[str, ...], configured: str | None) -> dict[str, str]:
    """``--profile`` values (``ALIAS=NAME``, or ``NAME`` for every model, ``*``) over the config's profile."""
    table = {"*": configured} if configured else {}
    for value in options:
        alias, sep, name = value.partition("=")
        if sep and (not alias.strip() or not name.strip()):
            raise ConfigError(f"--profile {value!r}: write ALIAS=NAME (e.g. qwen=qwen) or a bare NAME")
        table[alias.strip() if sep else "*"] = (name if sep else value).strip()
    return table


def _banner(
    host: str,
    port: int,
    table: dict[str, str],
    config_path: object,
    api_key: str | None,
    workers: int,
    state: str | None,
) -> None:
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}"
    mode = f"MCP-executing ({config_path})" if config_path else "pass-through"
    click.echo(f"shim serve: {', '.join(repr(n) for n in table) or 'any backend spec'} in {mode} mode")
    click.echo(f"  OpenAI-compatible:    {base}/v1  (openai.OpenAI(base_url=..., api_key=...); Codex)")
    click.echo(f"  Anthropic-compatible: {base}     (anthropic.Anthropic(base_url=...), ANTHROPIC_BASE_URL)")
    click.echo(f"  Ollama-compatible:    {base}     (ollama.Client(host=...), OLLAMA_HOST)")
    if not _loopback(host) and not api_key:
        click.echo("  warning: listening beyond this machine without --api-key; anyone who can reach it can use it")
    if workers > 1:
        click.echo(f"  {workers} workers; tool rounds kept in {_shown_state(state)}; /metrics sums every worker")


def _shown_state(state: str | None) -> str:
    if state and state.startswith(("redis://", "rediss://")):
        return "Redis"
    return f"SQLite ({state.removeprefix('sqlite:')})" if state else "memory"


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP, not 0: asyncio disables Nagle's algorithm only on sockets that say they are TCP, and
    # with it on, a response's body waits ~40 ms behind its headers for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        hint = " (is another server on that port? try --port 0)" if port else ""
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}{hint}") from None
    sock.set_inheritable(True)
    if os.name != "nt":
        sock.listen(128)
    return sock


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
