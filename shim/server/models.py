"""The models a server offers: names clients ask for, each bound to one backend shared by its requests.

A name is an alias given on the command line (``--model qwen=ollama:qwen2.5:7b``) or a spec given bare
(``--model ollama:qwen2.5:7b``, offered under the spec itself).

With ``any_model=DIR`` (``--any-model DIR``) a request may also name a backend spec the server was not
started with, within bounds, because a spec names files and URLs and the client is not the server's user:

- files (``replay:PATH``, ``llama-cpp:PATH``, a bare ``PATH.gguf``) only inside ``DIR``: the path is
  resolved relative to ``DIR`` with every symlink followed, and must then still be inside it and be a regular
  file (no FIFO that would freeze a worker, no device, nothing under ``/proc`` or ``/sys``);
- ``ollama:MODEL`` on the server's own Ollama, but no ``@URL`` and no ``openai:`` spec: a client could aim
  the server (and the API key it sends) at any host;
- at most ``max_loaded`` such models open at once; the least recently used is closed to make room.

Each model has a profile (`shim.profiles`): the one ``profiles`` names for its alias (or for ``*``, every
model), else the one detected from what its engine reports, asked on its first request and kept.
"""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import time
from collections import OrderedDict
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from starlette.requests import Request

from shim.agent import ToolSource
from shim.backends import get_backend
from shim.backends.base import Backend
from shim.errors import ConfigError
from shim.profiles import ModelProfile, detect_profile, get_profile
from shim.server.chat import ChatRequest, LoopSettings, Output, off_loop, run_chat
from shim.server.http import RequestError, read_json, redacted
from shim.server.store import MemoryRounds, RoundStore

__all__ = ["ModelEntry", "ModelRegistry", "ServerState", "parse_model_option"]

logger = logging.getLogger("shim.server")

T = TypeVar("T")


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


_SYSTEM_DIRS = (Path("/proc"), Path("/sys"), Path("/dev"))


def model_dir(value: str | os.PathLike[str]) -> Path:
    """The ``--any-model`` directory, resolved.

    Raises:
        ConfigError: not a directory, or one that would expose the whole system.
    """
    root = Path(value).expanduser().resolve()
    if not root.is_dir():
        raise ConfigError(f"--any-model {str(value)!r}: not a directory; name the directory that holds the models")
    if root == Path(root.anchor) or any(root == d or root.is_relative_to(d) for d in _SYSTEM_DIRS):
        raise ConfigError(f"--any-model {str(value)!r}: name a directory that holds only models, not {str(root)!r}")
    return root


class ModelRegistry:
    """Backends by model name.

    Args:
        models: name -> backend spec, or an already-made `Backend` (tests, embedding).
        any_model: a directory: let requests name backend specs for files in it (see the module docstring).
        max_loaded: how many models made on request may be open at once.
        profiles: model name (or ``*`` for every model) -> profile name, overriding detection.

    Raises:
        ConfigError: no models, a spec that `get_backend` rejects, a bad ``any_model`` directory, or a
            ``profiles`` entry naming an unknown profile or model.
    """

    def __init__(
        self,
        models: Mapping[str, str | Backend],
        *,
        any_model: str | os.PathLike[str] | None = None,
        max_loaded: int = 4,
        profiles: Mapping[str, str] | None = None,
    ) -> None:
        if not models and any_model is None:
            raise ConfigError("no models to serve: pass --model NAME=SPEC (or a bare SPEC), or set SHIM_MODEL")
        self._overrides = dict(profiles or {})
        for alias, profile in self._overrides.items():
            try:
                get_profile(profile)
            except ValueError as exc:
                raise ConfigError(f"--profile {alias}={profile}: {exc}") from None
            if alias != "*" and alias not in models:
                raise ConfigError(f"--profile {alias}={profile}: no model is offered as {alias!r}")
        self._profiles: dict[str, ModelProfile] = {}  # detected, by model name
        now = int(time.time())
        self._entries: dict[str, ModelEntry] = {}
        for name, target in models.items():
            backend = get_backend(target) if isinstance(target, str) else target
            spec = target if isinstance(target, str) else backend.name
            self._entries[name] = ModelEntry(name=name, spec=spec, backend=backend, created=now)
        self._root = model_dir(any_model) if any_model is not None else None
        self._max_loaded = max(1, max_loaded)
        self._loaded: OrderedDict[str, ModelEntry] = OrderedDict()
        self._closing: set[asyncio.Task[None]] = set()

    def entries(self) -> list[ModelEntry]:
        return [*self._entries.values(), *self._loaded.values()]

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
        if self._root is not None:
            return self._load(name)
        raise RequestError(
            404,
            f"model {name!r} is not offered here; use one of {self._listing()}",
            param="model",
            code="model_not_found",
        )

    async def profile(self, entry: ModelEntry) -> ModelProfile:
        """The model's profile: its override, else detected from its engine on the first request and kept (an
        engine that could not be asked is asked again next time)."""
        found = self._profiles.get(entry.name)
        if found is not None:
            return found
        override = self._overrides.get(entry.name) or self._overrides.get("*")
        detection = await detect_profile(entry.backend, entry.spec, override=override)
        if detection.complete:
            self._profiles[entry.name] = detection.profile
            logger.info("model %r: %s", entry.name, detection.describe())
        return detection.profile

    def _load(self, name: str) -> ModelEntry:
        if name in self._loaded:
            self._loaded.move_to_end(name)
            return self._loaded[name]
        spec = self._allowed_spec(name)
        try:
            backend = get_backend(spec)
        except (ConfigError, ImportError) as exc:
            raise self._refusal(name, str(exc)) from None
        entry = ModelEntry(name=name, spec=spec, backend=backend, created=int(time.time()))
        self._loaded[name] = entry
        logger.info("serving backend spec %r on request", name)
        while len(self._loaded) > self._max_loaded:
            _, evicted = self._loaded.popitem(last=False)
            self._profiles.pop(evicted.name, None)
            logger.info(
                "closing model %r to make room (at most %d are opened on request)", evicted.name, self._max_loaded
            )
            task = asyncio.get_running_loop().create_task(evicted.backend.aclose())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        return entry

    def _allowed_spec(self, name: str) -> str:
        """The spec to make for ``name``, its file resolved inside the model directory.

        Raises:
            RequestError: 404 for a spec outside the bounds (the message never says whether a file exists).
        """
        assert self._root is not None
        scheme, sep, rest = name.partition(":")
        if sep and scheme == "ollama" and rest and "@" not in rest:
            return name
        if sep and scheme in ("replay", "llama-cpp") and rest:
            path = rest
        elif name.endswith(".gguf"):
            scheme, path = "llama-cpp", name
        else:
            raise self._refusal(
                name, "--any-model serves files in its directory (replay:, llama-cpp:) and ollama:MODEL"
            )
        resolved = self._root / path
        try:
            resolved = resolved.resolve(strict=True)
            inside = resolved.is_relative_to(self._root) and not any(resolved.is_relative_to(d) for d in _SYSTEM_DIRS)
            regular = inside and stat.S_ISREG(os.stat(resolved).st_mode)
        except (OSError, RuntimeError, ValueError):
            regular = False
        if not regular:
            raise self._refusal(name, "no such model file in the server's model directory")
        return f"{scheme}:{resolved}"

    def _refusal(self, name: str, why: str) -> RequestError:
        return RequestError(404, f"model {name!r} is not offered here ({why})", param="model", code="model_not_found")

    def _listing(self) -> str:
        return ", ".join(repr(n) for n in self._entries) or "(none)"

    async def aclose(self) -> None:
        for entry in self.entries():
            await entry.backend.aclose()
        self._loaded.clear()


@dataclass(kw_only=True)
class ServerState:
    """What every request handler needs (``app.state.shim``)."""

    models: ModelRegistry
    tools: ToolSource | None = None
    """MCP tools the server runs itself (MCP-executing mode); None in pass-through mode."""
    loop: LoopSettings = field(default_factory=LoopSettings)
    max_body: int = 16 * 1024 * 1024
    """Largest request body in bytes."""
    max_messages: int = 10_000
    """Most messages (or ``input`` items) a request may carry."""
    rounds: RoundStore = field(default_factory=MemoryRounds)
    """Internal tool rounds of MCP-executing mode, for the follow-up requests (`shim.server.store`)."""

    async def read(self, request: Request, parse: Callable[[Any], T]) -> T:
        """A request's body, read within ``max_body`` (`read_json`) and made into the surface's own request by
        ``parse`` on a worker thread (`off_loop`: checking thousands of tools or messages takes seconds).

        Raises:
            RequestError: the body is too large or not JSON, or ``parse`` refused it (400, naming the field).
        """
        body = await read_json(request, limit=self.max_body)
        return await off_loop(partial(parse, body))

    async def outputs(self, entry: ModelEntry, chat: ChatRequest) -> AsyncGenerator[Output, None]:
        """The loop for one request of any surface: ``entry``'s model under its profile, with the server's tools,
        loop settings and saved rounds (`shim.server.chat.run_chat`; nothing runs until it is iterated)."""
        profile = await self.models.profile(entry)
        outputs = run_chat(
            entry.backend, chat, tools=self.tools, settings=self.loop, rounds=self.rounds, profile=profile
        )
        return outputs if self.tools is None else redacted(outputs)  # tool results may hold the servers' secrets
