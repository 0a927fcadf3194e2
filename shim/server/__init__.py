"""``shim serve``: an OpenAI- and Ollama-compatible server that gives tool calling to models without it.

Needs the ``serve`` extra (Starlette, uvicorn). See `shim.server.app.create_app`.
"""

from shim.server.app import ServerSettings, create_app
from shim.server.chat import LoopSettings

__all__ = ["LoopSettings", "ServerSettings", "create_app"]
