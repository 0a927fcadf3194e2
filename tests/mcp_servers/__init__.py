"""Real MCP servers for the tests: where they live and how to start them.

``@modelcontextprotocol/server-everything`` comes from ``npm ci`` (the root ``package.json`` and its lock file):
where ``node_modules`` is absent, `install_node_servers` runs it once before the first test (the top-level
conftest calls it), so ``pip install -e '.[dev]' && pytest`` is the whole setup. ``mcp-server-time`` comes from
the ``dev`` extra, and the lab servers sit next to this file. Nothing else is downloaded.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.abc import Process

from tests.helpers.processes import STARTUP_GUARD

try:
    import fcntl
except ImportError:  # Windows: no lock; one run at a time there
    fcntl = None

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
LAB_SERVER = HERE / "lab_server.py"
PAGED_SERVER = HERE / "paged_server.py"
NOISY_SERVER = HERE / "noisy_server.py"
EVERYTHING_BIN = ROOT / "node_modules" / ".bin" / "mcp-server-everything"
TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"


SHARED_ROUTER: dict[str, float] = {"timeout": 60.0, "startup_timeout": STARTUP_GUARD}
"""`ToolRouter` keywords for a router a module's tests share: generous hang guards, not races.

Its start-up is bounded by the router's own ``startup_timeout`` (a server that fails is in ``failures``),
never by a ``fail_after`` around the fixture's ``yield``: that scope stays open while the module's tests
run, and once it expires it cancels whichever test is running and closes the router under the rest
(``ClosedResourceError`` in every later test, then "coroutine ... was never awaited" after the summary).
"""


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


_npm_failure: str | None = None
"""Why `install_node_servers` could not install the node servers (npm is there but ``npm ci`` failed)."""


def install_node_servers() -> str | None:
    """Run ``npm ci`` in the repository when server-everything is missing and node and npm are installed.

    Once per checkout: a file lock keeps concurrent runs of it (two sessions, xdist workers) from
    installing over each other, and whoever waited finds the launcher there. ``--prefer-offline`` takes
    packages from npm's cache when it has them, so a second checkout installs without the network.

    Returns:
        What went wrong, for the terminal; None when it was installed, or nothing was needed or possible.
    """
    global _npm_failure
    npm = shutil.which("npm")
    if not node_servers_missing() or npm is None:
        return None
    command = [npm, "ci", "--no-audit", "--no-fund", "--prefer-offline"]
    key = hashlib.sha256(str(ROOT.resolve()).encode()).hexdigest()[:16]
    with open(Path(tempfile.gettempdir()) / f"shim-tests-npm-ci-{key}.lock", "w") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if EVERYTHING_BIN.exists():
            return None  # another run installed it while this one waited
        try:
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            _npm_failure = f"'npm ci' in {ROOT} did not finish: {exc}"
            return _npm_failure
    if done.returncode != 0 or not EVERYTHING_BIN.exists():
        output = (done.stderr or done.stdout).strip().splitlines()[-5:]
        _npm_failure = f"'npm ci' in {ROOT} failed (exit {done.returncode}): " + " | ".join(output)
        return _npm_failure
    return None


def node_servers_missing() -> bool:
    """server-everything is not installed, and node and npm are there to install it."""
    return not EVERYTHING_BIN.exists() and shutil.which("node") is not None and shutil.which("npm") is not None


def everything_bin() -> str:
    """server-everything's launcher; skips the test where node or npm is not installed, with the reason.

    CI has both, so these tests run there. Where npm is present but ``npm ci`` failed, the test fails
    with npm's own message: that is a setup problem to fix, not a reason to skip.
    """
    if shutil.which("node") is None:
        pytest.skip("node is not installed; @modelcontextprotocol/server-everything needs it (https://nodejs.org)")
    if not EVERYTHING_BIN.exists():
        if shutil.which("npm") is None:
            pytest.skip(f"npm is not installed, so 'npm ci' could not install {EVERYTHING_BIN.name} in {ROOT}")
        pytest.fail(_npm_failure or f"{EVERYTHING_BIN} is missing: run 'npm ci' in {ROOT}")
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
        with anyio.fail_after(STARTUP_GUARD):
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
