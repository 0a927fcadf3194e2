"""``shim serve``: run the OpenAI- and Ollama-compatible server."""

from __future__ import annotations

import ipaddress
import logging
import os
import socket

import click

from shim.errors import ShimError
from shim.server.app import ServerSettings, create_app
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
@click.option("--dialect", help="Call syntax taught to the model: function_call (default), tool_call, or a template.")
@click.option("--max-turns", type=click.IntRange(min=1), help="Model turns per request, tool rounds included.")
@click.option(
    "--max-body",
    default=16 * 1024 * 1024,
    show_default=True,
    type=click.IntRange(min=1024),
    help="Largest request body, in bytes.",
)
@click.option("--any-model", is_flag=True, help="Let requests name any backend spec (lets clients read local files).")
@click.option(
    "--constrain", type=click.Choice(["auto", "on", "off"]), help="Calls under a grammar: auto (default), on, off."
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
    max_turns: int | None,
    max_body: int,
    any_model: bool,
    constrain: str | None,
    log_level: str,
) -> None:
    """Serve models as an OpenAI- and Ollama-compatible provider with tool calling.

    Clients (the openai and ollama libraries, LangChain, Open WebUI, Continue...) send their tools as
    usual; shim writes them into the prompt and turns the calls the model writes as text into real
    tool_calls. With --config, the server also runs MCP tools itself and streams the final answer.

    \b
    Examples:
      shim serve -m qwen=ollama:qwen2.5:7b
      shim serve -m tiny=llama-cpp:./model.gguf -m ollama:llama3.2 --config mcp.json
      shim serve -m qwen=ollama:qwen2.5:7b --host 0.0.0.0 --api-key "$KEY"
    """
    import uvicorn  # the serve extra; imported here so `shim --help` stays fast

    try:
        settings = resolve_settings(config=config, dialect=dialect, max_turns=max_turns)
        table = dict(parse_model_option(m) for m in models)
        if not table and settings.model:
            table = {settings.model: settings.model}
        config_path = settings.config_path if settings.config_explicit else None
        app = create_app(
            table,
            config=config_path,
            settings=ServerSettings(
                api_key=api_key or None,
                cors_origins=cors,
                max_body=max_body,
                any_spec=any_model,
                loop=LoopSettings(
                    dialect=settings.dialect, max_turns=settings.max_turns, constrain=constrain or settings.constrain
                ),
            ),
        )
    except ShimError as exc:
        raise click.ClickException(str(exc)) from None
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{bound}"
    mode = f"MCP-executing ({config_path})" if config_path else "pass-through"
    click.echo(f"shim serve: {', '.join(repr(n) for n in table) or 'any backend spec'} in {mode} mode")
    click.echo(f"  OpenAI-compatible:  {base}/v1    (openai.OpenAI(base_url=..., api_key=...))")
    click.echo(f"  Ollama-compatible:  {base}       (ollama.Client(host=...), OLLAMA_HOST)")
    if not _loopback(host) and not api_key:
        click.echo("  warning: listening beyond this machine without --api-key; anyone who can reach it can use it")
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    config_ = uvicorn.Config(app, log_level=log_level, ws="none", lifespan="on", timeout_graceful_shutdown=5)
    uvicorn.Server(config_).run(sockets=[sock])


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
