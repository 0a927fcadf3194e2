"""``shim tools``: list the tools of every configured MCP server, as the model will see them."""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Generator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any, TextIO

import anyio
import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from shim.cli.files import check_input_file
from shim.config import CONFIG_ENV_VAR, McpConfig, default_config_path, load_config, resolve_config_path
from shim.errors import ConfigError
from shim.redact import redact_data
from shim.routing import ToolRouter

__all__ = ["config_option", "load_or_fail", "server_log", "server_log_path", "server_notices", "tools"]

config_option = click.option(
    "--config",
    "-c",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help=f"mcpServers JSON file [default: ${CONFIG_ENV_VAR}, else {default_config_path()}]",
)
server_logs_option = click.option(
    "--server-logs", is_flag=True, help="Show what the servers write to stderr (hidden by default)."
)


def load_or_fail(path: Path | None) -> McpConfig:
    """Load the config or exit with its message (no traceback)."""
    check_input_file(resolve_config_path(path), param="--config", what="config file")
    try:
        return load_config(path)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None


def server_log_path() -> Path:
    """Where MCP servers' stderr is kept: ``$SHIM_SERVER_LOG``, else the user's cache folder."""
    if os.environ.get("SHIM_SERVER_LOG"):
        return Path(os.environ["SHIM_SERVER_LOG"])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "shim" / "servers.log"


def server_log(show: bool) -> AbstractContextManager[TextIO]:
    """Where stdio servers' stderr goes, for every verb: the terminal with ``--server-logs`` (when stderr is a
    real file a child process can write to), else appended to `server_log_path`, so their chatter stays out
    of the output but a failing server can still be diagnosed."""
    if show and _has_fileno(sys.stderr):
        return nullcontext(sys.stderr)
    path = server_log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("a", encoding="utf-8")


class _NoticeHandler(logging.Handler):
    """Prints the MCP client's notices (records logged with ``extra={"notice": True}``) as one line each."""

    def __init__(self, console: Console) -> None:
        super().__init__(logging.WARNING)
        self.console = console

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "notice", False):
            self.console.print(
                f"[yellow]warning:[/] {escape(record.getMessage())}", markup=True, highlight=False, soft_wrap=True
            )


@contextmanager
def server_notices(console: Console) -> Generator[None, None, None]:
    """Show on ``console`` what the MCP client says about a misbehaving server (junk on its stdout), once per
    server, while the block runs."""
    handler = _NoticeHandler(console)
    client_logger = logging.getLogger("shim.mcp_client")
    client_logger.addHandler(handler)
    try:
        yield
    finally:
        client_logger.removeHandler(handler)


def _has_fileno(stream: TextIO) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


@click.command("tools")
@config_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON: the tools with their schemas, and failures.")
@server_logs_option
def tools(config_path: Path | None, as_json: bool, server_logs: bool) -> None:
    """List the tools of every configured MCP server.

    Names are the ones offered to the model: a name two servers share becomes SERVER__TOOL. Exits with
    status 1 if a server failed to start (the others are still listed).

    \b
    Examples:
      shim tools --config mcp.json
      shim tools --json | jq '.tools[].name'
    """
    config = load_or_fail(config_path)

    async def collect(errlog: TextIO) -> tuple[list[dict[str, Any]], dict[str, str]]:
        async with ToolRouter(config.servers, errlog=errlog) as router:
            rows: list[dict[str, Any]] = []
            for spec in await router.list_tools():
                server, original = router.origin(spec.name) or ("?", spec.name)
                rows.append(
                    {
                        "name": spec.name,
                        "server": server,
                        "server_name": original,
                        "approval": router.approval_of(spec.name),
                        "description": spec.description,
                        "input_schema": spec.input_schema,
                        "output_schema": spec.output_schema,
                        "annotations": spec.annotations,
                    }
                )
            return rows, dict(router.failures)

    errors = Console(stderr=True)
    with server_log(server_logs) as errlog, server_notices(errors):
        rows, failures = anyio.run(collect, errlog)
    secrets = [secret for server in config.servers for secret in server.secrets]
    rows, failures = redact_data(rows, secrets), redact_data(failures, secrets)  # a server may echo its secrets
    if as_json:
        click.echo(json.dumps({"tools": rows, "failures": failures}, indent=2, ensure_ascii=False))
    else:
        table = Table(title=f"{len(rows)} tools")
        for column in ("Tool", "Server", "Approval"):
            table.add_column(column, no_wrap=True)  # names must stay copyable
        table.add_column("Description", ratio=1)
        for row in rows:
            renamed = f" (as {row['server_name']!r})" if row["server_name"] != row["name"] else ""
            first_line = (row["description"] or "").strip().split("\n")[0]
            table.add_row(row["name"], row["server"] + renamed, row["approval"], first_line)
        Console(soft_wrap=False).print(table)
    for why in failures.values():
        errors.print(f"[red]error:[/red] {escape(why)}", markup=True, highlight=False, soft_wrap=True)
    if failures:
        sys.exit(1)
