"""The models a server offers: names clients ask for, each bound to one backend shared by its requests.

A name is an alias given on the command line (``--model qwen=ollama:qwen2.5:7b``) or a spec given bare
(``--model ollama:qwen2.5:7b``, offered under the spec itself). With ``any_spec`` a request may also name a
backend spec the server was not started with; that is off by default, because a spec names files
(``replay:PATH``, ``llama-cpp:PATH``) and a client could then read any file the server can.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from shim.agent import ToolSource
from shim.backends import get_backend
from shim.backends.base import Backend
from shim.errors import ConfigError
from shim.server.chat import LoopSettings, Rounds
from shim.server.http import RequestError

__all__ = ["ModelEntry", "ModelRegistry", "ServerState", "parse_model_option"]

logger = logging.getLogger("shim.server")


@dataclass(frozen=True, kw_only=True)
class ModelEntry:
    name: str
    """What clients put in ``model``."""
    spec: str
    """The backend spec (the backend's name for one given as an object)."""
    backend: Backend
    created: int
    """Unix time the server started offering it (OpenAI's ``created``)."""


def parse_model_option(value: str) -> tuple[str, str]:
    """``NAME=SPEC`` -> ``(NAME, SPEC)``; a bare ``SPEC`` is offered under its own name.

    Raises:
        ConfigError: an empty name or spec.
    """
    name, sep, spec = value.partition("=")
    if not sep:
        return value, value
    if not name.strip() or not spec.strip():
        raise ConfigError(f"--model {value!r}: write NAME=SPEC (e.g. qwen=ollama:qwen2.5:7b) or a bare SPEC")
    return name.strip(), spec.strip()


class ModelRegistry:
    """Backends by model name.

    Args:
        models: name -> backend spec, or an already-made `Backend` (tests, embedding).
        any_spec: let requests name any backend spec, made on first use and kept.

    Raises:
        ConfigError: no models, or a spec that `get_backend` rejects.
    """

    def __init__(self, models: Mapping[str, str | Backend], *, any_spec: bool = False) -> None:
        if not models and not any_spec:
            raise ConfigError("no models to serve: pass --model NAME=SPEC (or a bare SPEC), or set SHIM_MODEL")
        now = int(time.time())
        self._entries: dict[str, ModelEntry] = {}
        for name, target in models.items():
            backend = get_backend(target) if isinstance(target, str) else target
            spec = target if isinstance(target, str) else backend.name
            self._entries[name] = ModelEntry(name=name, spec=spec, backend=backend, created=now)
        self._any_spec = any_spec

    def entries(self) -> list[ModelEntry]:
        return list(self._entries.values())

    def get(self, name: object) -> ModelEntry:
        """The entry for a requested model name.

        Raises:
            RequestError: 400 when ``name`` is missing, 404 (listing the models) when it is unknown.
        """
        if not isinstance(name, str) or not name:
            raise RequestError(400, f"'model' is required; this server offers {self._listing()}", param="model")
        # Ollama clients add the default tag themselves (qwen -> qwen:latest).
        found = self._entries.get(name) or self._entries.get(name.removesuffix(":latest"))
        if found is not None:
            return found
        if self._any_spec:
            try:
                backend = get_backend(name)
            except (ConfigError, ImportError) as exc:
                raise RequestError(
                    404,
                    f"model {name!r} is not offered here and is not a usable backend spec ({exc})",
                    param="model",
                    code="model_not_found",
                ) from None
            entry = ModelEntry(name=name, spec=name, backend=backend, created=int(time.time()))
            self._entries[name] = entry
            logger.info("serving backend spec %r on request", name)
            return entry
        raise RequestError(
            404,
            f"model {name!r} is not offered here; use one of {self._listing()}",
            param="model",
            code="model_not_found",
        )

    def _listing(self) -> str:
        return ", ".join(repr(n) for n in self._entries) or "(none)"

    async def aclose(self) -> None:
        for entry in self._entries.values():
            await entry.backend.aclose()


@dataclass(kw_only=True)
class ServerState:
    """What every request handler needs (``app.state.shim``)."""

    models: ModelRegistry
    tools: ToolSource | None = None
    """MCP tools the server runs itself (MCP-executing mode); None in pass-through mode."""
    loop: LoopSettings = field(default_factory=LoopSettings)
    max_body: int = 16 * 1024 * 1024
    """Largest request body in bytes."""
    rounds: Rounds = field(default_factory=Rounds)
    """Internal tool rounds of MCP-executing mode, for the follow-up requests."""
