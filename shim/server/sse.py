"""OpenAI's chat-completion shapes: `Output` items -> ``chat.completion.chunk`` objects -> SSE lines.

A stream, exactly as OpenAI shapes it::

    {"delta": {"role": "assistant", "content": ""}}                           first chunk
    {"delta": {"content": "Let me check."}}                                   text
    {"delta": {"reasoning_content": "..."}}                                   reasoning (DeepSeek/vLLM name)
    {"delta": {"tool_calls": [{"index": 0, "id": "call_…", "type": "function",
                               "function": {"name": "get_weather", "arguments": ""}}]}}   a call opens
    {"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\\"city\\""}}]}}  its arguments
    {"delta": {}, "finish_reason": "tool_calls"}                              one terminal chunk
    {"choices": [], "usage": {...}}                                           if stream_options.include_usage
    [DONE]
"""

from __future__ import annotations

import time
from typing import Any

from shim.ids import object_id
from shim.server.chat import CallOut, FinishOut, Output, ReasoningOut, TextOut
from shim.server.http import RequestError, json_bytes
from shim.server.surfaces import error_body as surface_error_body

__all__ = ["ChunkEncoder", "completion_body", "error_body", "sse"]


def sse(data: Any, *, event: str | None = None) -> bytes:
    """One server-sent event carrying ``data`` as JSON, named ``event`` where the surface names its events
    (Anthropic, Responses): the one place every surface's stream is framed."""
    name = b"event: " + event.encode() + b"\n" if event is not None else b""
    return name + b"data: " + json_bytes(data) + b"\n\n"


DONE = b"data: [DONE]\n\n"


def error_body(error: RequestError) -> dict[str, Any]:
    """OpenAI's error object: the body of an error response, and the last event of a stream that failed
    after it began (the openai SDK raises ``APIError`` with its message)."""
    return surface_error_body("openai", error)


class ChunkEncoder:
    """Turns one response's `Output` items into chunk objects; one encoder per stream."""

    def __init__(self, model: str, *, include_usage: bool = False) -> None:
        self.id = object_id("chatcmpl-")
        self.model = model
        self.created = int(time.time())
        self.include_usage = include_usage

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        chunk: dict[str, Any] = {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "system_fingerprint": None,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if self.include_usage:
            chunk["usage"] = None  # as OpenAI: null on every chunk but the last
        return chunk

    def first(self) -> dict[str, Any]:
        return self._chunk({"role": "assistant", "content": ""})

    def encode(self, output: Output) -> list[dict[str, Any]]:
        match output:
            case TextOut():
                return [self._chunk({"content": output.text})]
            case ReasoningOut():
                return [self._chunk({"reasoning_content": output.text})]
            case CallOut():
                opening = {
                    "index": output.index,
                    "id": output.id,
                    "type": "function",
                    "function": {"name": output.name, "arguments": ""},
                }
                chunks = [self._chunk({"tool_calls": [opening]})]
                for fragment in output.fragments or ("{}",):
                    part = {"index": output.index, "function": {"arguments": fragment}}
                    chunks.append(self._chunk({"tool_calls": [part]}))
                return chunks
            case FinishOut():
                chunks = [self._chunk({}, output.reason)]
                if self.include_usage:
                    chunks.append(
                        {
                            "id": self.id,
                            "object": "chat.completion.chunk",
                            "created": self.created,
                            "model": self.model,
                            "system_fingerprint": None,
                            "choices": [],
                            "usage": usage(output),
                        }
                    )
                return chunks


def usage(finish: FinishOut) -> dict[str, int]:
    return {
        "prompt_tokens": finish.prompt_tokens,
        "completion_tokens": finish.completion_tokens,
        "total_tokens": finish.prompt_tokens + finish.completion_tokens,
    }


def completion_body(model: str, outputs: list[Output]) -> dict[str, Any]:
    """The non-streaming ``chat.completion`` object for a collected response."""
    text = "".join(o.text for o in outputs if isinstance(o, TextOut))
    reasoning = "".join(o.text for o in outputs if isinstance(o, ReasoningOut))
    calls = [o for o in outputs if isinstance(o, CallOut)]
    finish = next(o for o in outputs if isinstance(o, FinishOut))
    # OpenAI's content is null beside tool calls, and a string (maybe empty) otherwise.
    message: dict[str, Any] = {"role": "assistant", "content": text or (None if calls else ""), "refusal": None}
    if reasoning:
        message["reasoning_content"] = reasoning
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments_json}} for c in calls
        ]
    return {
        "id": object_id("chatcmpl-"),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "system_fingerprint": None,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish.reason}],
        "usage": usage(finish),
    }
