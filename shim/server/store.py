"""Where MCP-executing mode keeps the tool rounds it ran itself, between a client's requests.

The client never saw those rounds, so the follow-up request that answers its calls lacks them; the
assistant message carrying the same call ids is replaced by the full record, and the model sees its whole
history again. Call ids are random, so one client cannot ask for another's. Ollama clients send no call ids
back, so their follow-ups go without.

Three stores behind one `RoundStore` protocol, chosen by `open_store`:

- `MemoryRounds`: one process (``--workers 1``, the default); the oldest forgotten first;
- `SqliteRounds`: a file every worker of one host shares (the default with ``--workers N``); WAL mode,
  each statement on a worker thread so the event loop never waits on the disk;
- `RedisRounds`: ``--state redis://HOST:PORT/DB``, for several hosts behind a load balancer; entries expire.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import anyio.to_thread

from shim.errors import ConfigError
from shim.notices import notice
from shim.prompting import chat_messages
from shim.types import ChatMessage, ToolCall

__all__ = ["MemoryRounds", "RedisRounds", "RoundStore", "SqliteRounds", "open_store"]

logger = logging.getLogger("shim.server")

Messages = list[dict[str, Any]]
"""Saved rounds, as the agent writes them (`shim.Agent.messages`): plain JSON for every store."""


class RoundStore(Protocol):
    """Saved internal tool rounds, keyed by the ids of the calls handed back to the client."""

    async def save(self, calls: Sequence[ToolCall], messages: Messages) -> None:
        """Keep ``messages`` (the rounds after the request's own) for the follow-up that answers ``calls``."""
        ...

    async def restore(self, messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        """``messages`` with each assistant message whose call ids were saved replaced by the saved rounds."""
        ...

    async def aclose(self) -> None: ...


def _key(ids: Sequence[str]) -> str:
    return "\x1f".join(ids)


def _worth_saving(messages: Messages) -> bool:
    return any(m.get("role") == "tool" for m in messages)  # else the client's own record is complete


async def _restore(
    messages: Sequence[ChatMessage], get: Callable[[str], Awaitable[Messages | None]]
) -> list[ChatMessage]:
    restored: list[ChatMessage] = []
    for message in messages:
        ids = [call.id for call in message.tool_calls] if message.role == "assistant" else []
        saved = await get(_key(ids)) if ids and all(ids) else None  # a call without an id was never saved
        restored.extend(chat_messages(saved) if saved is not None else [message])
    return restored


class MemoryRounds:
    """In this process; the ``size`` most recent kept."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._saved: OrderedDict[str, Messages] = OrderedDict()

    async def save(self, calls: Sequence[ToolCall], messages: Messages) -> None:
        if not _worth_saving(messages):
            return
        self._saved[_key([c.id for c in calls])] = messages
        while len(self._saved) > self._size:
            self._saved.popitem(last=False)

    async def restore(self, messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        async def get(key: str) -> Messages | None:
            return self._saved.get(key)

        return await _restore(messages, get)

    async def aclose(self) -> None:
        pass


class SqliteRounds:
    """In a SQLite file several processes share; the ``size`` most recent kept."""

    def __init__(self, path: str | Path, size: int = 10_000) -> None:
        self.path = Path(path)
        self._size = size
        self._lock = threading.Lock()  # one connection, used from worker threads one at a time
        try:
            self._db = sqlite3.connect(self.path, timeout=10, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS rounds (key TEXT PRIMARY KEY, messages TEXT NOT NULL, saved REAL)"
            )
        except sqlite3.Error as exc:
            raise ConfigError(f"--state: cannot use {str(self.path)!r} as a SQLite store: {exc}") from None

    def _run(self, sql: str, *params: Any) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def _put(self, key: str, data: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO rounds (key, messages, saved) VALUES (?, ?, ?)", (key, data, time.time())
            )
            self._db.execute("DELETE FROM rounds WHERE rowid <= (SELECT MAX(rowid) FROM rounds) - ?", (self._size,))

    async def save(self, calls: Sequence[ToolCall], messages: Messages) -> None:
        if _worth_saving(messages):
            data = json.dumps(messages, ensure_ascii=False)
            await anyio.to_thread.run_sync(self._put, _key([c.id for c in calls]), data)

    async def restore(self, messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        async def get(key: str) -> Messages | None:
            rows = await anyio.to_thread.run_sync(self._run, "SELECT messages FROM rounds WHERE key = ?", key)
            return json.loads(rows[0][0]) if rows else None

        return await _restore(messages, get)

    async def aclose(self) -> None:
        with self._lock:
            self._db.close()


class RedisRounds:
    """In Redis, shared by every host; entries expire after ``ttl`` seconds.

    A Redis restart leaves each worker's pooled connections stale, and the first command on one fails: every
    command is tried once more (on a fresh connection) before it counts as failed. A round that still cannot
    be saved or read is not dropped in silence: the response says so in ``x-shim-state`` (else the client
    would not know that the model will not see, and may repeat, the tool calls it already made).
    """

    PREFIX = "shim:rounds:"
    HEADER = "x-shim-state"

    def __init__(self, url: str, ttl: int = 24 * 3600) -> None:
        try:
            import redis.asyncio as aioredis
        except ImportError:
            raise ConfigError("--state redis://...: install the serve extra: pip install 'shim[serve]'") from None
        from redis.exceptions import RedisError

        self._redis: Any = aioredis.Redis.from_url(url)  # pyright: ignore[reportUnknownMemberType]
        self._errors = RedisError
        self._ttl = ttl

    async def _twice(self, command: Callable[[], Awaitable[Any]]) -> Any:
        try:
            return await command()
        except self._errors:  # a stale pooled connection (Redis restarted): the retry takes a fresh one
            return await command()

    async def save(self, calls: Sequence[ToolCall], messages: Messages) -> None:
        if _worth_saving(messages):
            key = self.PREFIX + _key([c.id for c in calls])
            data = json.dumps(messages, ensure_ascii=False)
            try:
                await self._twice(lambda: self._redis.set(key, data, ex=self._ttl))
            except self._errors as exc:  # the answer still goes out, saying its rounds were not kept
                logger.warning("could not save tool rounds to Redis: %s", exc)
                notice(self.HEADER, "not-saved; the tool rounds run for this answer could not be kept in Redis")

    async def restore(self, messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        async def get(key: str) -> Messages | None:
            try:
                data = await self._twice(lambda: self._redis.get(self.PREFIX + key))
            except self._errors as exc:
                logger.warning("could not read tool rounds from Redis: %s", exc)
                notice(self.HEADER, "not-restored; the saved tool rounds could not be read from Redis")
                return None
            return json.loads(data) if data is not None else None

        return await _restore(messages, get)

    async def aclose(self) -> None:
        await self._redis.aclose()


def open_store(url: str | None) -> RoundStore:
    """The store a ``--state`` value names: none (memory), ``sqlite:PATH`` or a path, ``redis://...``.

    Raises:
        ConfigError: a value that names none of them, or a file SQLite cannot open.
    """
    if not url or url == "memory":
        return MemoryRounds()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisRounds(url)
    path = url.removeprefix("sqlite:")
    if "://" in path:
        raise ConfigError(f"--state {url!r}: use memory, sqlite:PATH (or a file path), or redis://HOST:PORT/DB")
    return SqliteRounds(path)
