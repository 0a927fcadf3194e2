"""What ``shim demo`` runs on: a tiny embedded model, a demo MCP server, and scripted requests.

- `model_path` is the GGUF shipped in the package, trained by ``benchmarks/tiny_model/train.py`` on shim's
  own prompt format for the demo server's five tools (load it with the ``llama-cpp:`` backend).
- `server_config` starts the demo server (``python -m shim.demo.server``) over stdio; `demo_tool_specs`
  lists its tools the way the demo sees them.
- `DEMO_REQUESTS` are the scripted requests, in English and Korean; `PROMPT_OPTIONS` are the
  `render_messages` settings the model was trained with (it also knows the compact listing).

Nothing here imports the MCP SDK or llama.cpp at import time.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shim.config import ServerConfig
from shim.demo.tools import NOW_ENV
from shim.types import ToolSpec

__all__ = [
    "DEMO_REQUESTS",
    "NOW_ENV",
    "PROMPT_OPTIONS",
    "DemoRequest",
    "demo_tool_specs",
    "model_path",
    "server_config",
]

_MODEL = Path(__file__).resolve().parent / "model" / "shim-tiny.gguf"


def model_path() -> Path:
    """The shipped demo model (``shim/demo/model/shim-tiny.gguf``)."""
    return _MODEL


@dataclass(frozen=True, kw_only=True)
class DemoRequest:
    """A scripted request and the call the demo model is expected to make for it."""

    text: str
    tool: str
    arguments: Mapping[str, Any]


DEMO_REQUESTS: tuple[DemoRequest, ...] = (
    DemoRequest(text="What is 17 times 23?", tool="calculate", arguments={"expression": "17 * 23"}),
    DemoRequest(text="What time is it in Seoul?", tool="get_time", arguments={"timezone": "Asia/Seoul"}),
    DemoRequest(
        text="Convert 10 miles to kilometers.",
        tool="convert_units",
        arguments={"value": 10, "from_unit": "mi", "to_unit": "km"},
    ),
    DemoRequest(text="Set color to green.", tool="kv_set", arguments={"key": "color", "value": "green"}),
    DemoRequest(text="What is stored under color?", tool="kv_get", arguments={"key": "color"}),
    DemoRequest(
        text="섭씨 30도를 화씨로 바꿔 줘.",
        tool="convert_units",
        arguments={"value": 30, "from_unit": "C", "to_unit": "F"},
    ),
)
"""In order: the key-value pair is stored before it is read back."""

PROMPT_OPTIONS: Mapping[str, Any] = {"dialect": "function_call", "compact": None}
"""`render_messages` keywords the model was trained with (full listing; compact works too)."""


def server_config(*, now: str | None = None, name: str = "demo") -> ServerConfig:
    """The demo server as a stdio `ServerConfig` running this Python.

    Args:
        now: An ISO 8601 instant that freezes ``get_time``'s clock (tests, reproducible demos).
        name: The server's name in the tool router.
    """
    env = {NOW_ENV: now} if now else {}
    return ServerConfig(name=name, transport="stdio", command=sys.executable, args=("-m", "shim.demo.server"), env=env)


async def demo_tool_specs() -> list[ToolSpec]:
    """The demo server's tools as shim sees them over a real stdio connection.

    Raises:
        ToolExecutionError: the server did not start.
    """
    from shim.mcp_client import open_connection

    async with open_connection(server_config()) as connection:
        return await connection.list_tools()
