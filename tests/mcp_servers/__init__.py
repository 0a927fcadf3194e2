"""Real MCP servers for the tests: where they live and how to start them.

Nothing is downloaded at test time: ``@modelcontextprotocol/server-everything`` comes from ``npm ci`` (the
root ``package.json``), ``mcp-server-time`` from the ``dev`` extra, and the lab servers sit next to this file.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.abc import Process

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
LAB_SERVER = HERE / "lab_server.py"
PAGED_SERVER = HERE / "paged_server.py"
NOISY_SERVER = HERE / "noisy_server.py"
EVERYTHING_BIN = ROOT / "node_modules" / ".bin" / "mcp-server-everything"
TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"


def lab(**extra: Any) -> dict[str, Any]:
    """A config entry for the lab server (stdio, this interpreter)."""
    return {"command": sys.executable, "args": [str(LAB_SERVER)], **extra}


def lab_in_process(name: str = "lab", *, secret: str = "") -> Callable[[], Any]:
    """A fresh lab server in this process for each connection, as `shim.mcp_client.Connect` takes it: the SDK
    serves it over memory streams, so logic tests start no process and race no clock."""
    from mcp_servers.lab_server import build

    return lambda: build(name, secret=secret)


def noisy(**extra: Any) -> dict[str, Any]:
    """The lab server behind a pipe that prints junk lines on stdout between its messages."""
    return {"command": sys.executable, "args": [str(NOISY_SERVER)], **extra}


def paged(**extra: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [str(PAGED_SERVER)], **extra}


def everything_bin() -> str:
    """server-everything's launcher; skips the test where node is not installed (CI has it, so they run there)."""
    found = shutil.which("node")
    if found is None:
        pytest.skip("node is not installed; @modelcontextprotocol/server-everything needs it")
    if not EVERYTHING_BIN.exists():
        # node is there, so this is a setup mistake, not a reason to skip.
        pytest.fail(f"{EVERYTHING_BIN} is missing: run 'npm ci' in {ROOT} (as .ci/run does)")
    return str(EVERYTHING_BIN)


def everything(**extra: Any) -> dict[str, Any]:
    """A config entry for server-everything over stdio."""
    return {"command": everything_bin(), "args": ["stdio"], **extra}


def time_server(**extra: Any) -> dict[str, Any]:
    """A config entry for mcp-server-time (installed from PyPI by the dev extra)."""
    assert TIME_SERVER.exists(), f"{TIME_SERVER} is missing: pip install -e '.[dev]'"
    return {"command": str(TIME_SERVER), **extra}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@asynccontextmanager
async def _serve(command: list[str], port: int, ready: bytes) -> AsyncIterator[Process]:
    env = {**os.environ, "PORT": str(port)}
    process = await anyio.open_process(command, env=env)
    try:
        assert process.stderr is not None
        seen = b""
        with anyio.fail_after(20):
            # Each server logs a line once it listens; waiting for it avoids polling the port.
            while ready not in seen:
                seen += await process.stderr.receive()
        yield process
    finally:
        if process.returncode is None:
            process.terminate()
        with anyio.CancelScope(shield=True):
            await process.wait()
        await process.aclose()


def everything_http(port: int) -> AbstractAsyncContextManager[Process]:
    """server-everything over Streamable HTTP at http://127.0.0.1:port/mcp, listening when this enters."""
    return _serve([everything_bin(), "streamableHttp"], port, b"listening on port")


def everything_sse(port: int) -> AbstractAsyncContextManager[Process]:
    """server-everything over the old HTTP+SSE transport at http://127.0.0.1:port/sse."""
    return _serve([everything_bin(), "sse"], port, b"Server is running on port")


def lab_http(port: int) -> AbstractAsyncContextManager[Process]:
    """The lab server over Streamable HTTP (the SDK's, with sessions) at http://127.0.0.1:port/mcp."""
    return _serve([sys.executable, str(LAB_SERVER), "http", str(port)], port, b"Uvicorn running")
