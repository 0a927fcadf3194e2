"""The Anthropic-compatible surface: ``POST /v1/messages`` and ``POST /v1/messages/count_tokens``.

A stream, in Anthropic's order (each an SSE event named by its ``type``)::

    message_start            {"message": {"id": "msg_…", "content": [], "stop_reason": null, "usage": {...}}}
    ping
    content_block_start      {"index": 0, "content_block": {"type": "text", "text": ""}}
    content_block_delta      {"index": 0, "delta": {"type": "text_delta", "text": "Let me check."}}
    content_block_stop       {"index": 0}
    content_block_start      {"index": 1, "content_block": {"type": "tool_use", "id": "toolu_…", "input": {}, ...}}
    content_block_delta      {"index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\\"city\\""}}
    content_block_stop       {"index": 1}
    message_delta            {"delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {...}}
    message_stop

Reasoning streams as a ``thinking`` block (``thinking_delta``). ``stop_reason`` is ``tool_use``,
``max_tokens`` or ``end_turn`` (the engines do not say whether a stop sequence ended the text). Errors have
Anthropic's shape, ``{"type": "error", "error": {"type": "invalid_request_error", "message": ...}}``.

The response names what it did not apply in headers: ``x-shim-ignored-params`` (fields accepted but not
applied, such as ``context_management``), ``x-shim-dropped-tools`` (tools without a schema, such as the hosted
``web_search_20250305``, left out of the prompt) and ``x-shim-structured-output`` (how ``output_config.format``
was met). See `shim.server.wire.anthropic` for the fields.

``count_tokens`` counts the prompt the model would be sent (system prompt with the tools included) with the
engine's tokenizer where the backend has one (a ``count_tokens`` method); otherwise it answers an estimate
(UTF-8 bytes / 4) and says so in the ``x-shim-token-count: estimate`` header.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from shim.ids import object_id
from shim.server.chat import CallOut, FinishOut, Output, ReasoningOut, TextOut, prompt_of
from shim.server.http import RequestError, Watched, is_obj, names_header, respond
from shim.server.models import ServerState
from shim.server.sse import sse
from shim.server.surfaces import error_body as surface_error_body
from shim.server.wire import validate
from shim.server.wire.anthropic import THREAD_UNSUPPORTED, MessagesCall, MessagesRequest, to_chat, tool_use_id
from shim.types import Message

__all__ = ["anthropic_error", "count_tokens", "error_body", "messages"]


def error_body(error: RequestError) -> dict[str, Any]:
    """Anthropic's error object (the body of an error response, and the ``error`` event of a stream)."""
    body = surface_error_body("anthropic", error)
    if error.code == THREAD_UNSUPPORTED:  # the details a client reads to go on without a thread
        body["error"]["details"] = {"error_code": THREAD_UNSUPPORTED, "unsupported": ["thread"]}
    return body


def anthropic_error(error: RequestError) -> JSONResponse:
    return JSONResponse(error_body(error), status_code=error.status)


async def messages(request: Request) -> Response | Watched:
    state: ServerState = request.app.state.shim
    try:
        call = await state.read(request, _messages_call)
        entry = state.models.get(call.chat.model)
    except RequestError as exc:
        return anthropic_error(exc)
    headers = names_header(b"x-shim-ignored-params", call.ignored)
    headers += names_header(b"x-shim-dropped-tools", call.dropped_tools)
    outputs = await state.outputs(entry, call.chat)
    encoder = _Events(entry.name, hide_thinking=call.hide_thinking)
    return respond(outputs, encoder, stream=call.stream, build=encoder.whole, headers=headers)


def _messages_call(body: Any) -> MessagesCall:
    return to_chat(validate(MessagesRequest, body))


def _count_call(body: Any) -> MessagesCall:
    if is_obj(body):
        body.setdefault("max_tokens", 1)  # count_tokens takes no max_tokens
    return _messages_call(body)


async def count_tokens(request: Request) -> Response:
    state: ServerState = request.app.state.shim
    try:
        chat = (await state.read(request, _count_call)).chat
        entry = state.models.get(chat.model)
    except RequestError as exc:
        return anthropic_error(exc)
    profile = await state.models.profile(entry)
    try:  # the prompt the model would get: the loop's own, the server's tools offered too
        prompt = await prompt_of(entry.backend, chat, tools=state.tools, settings=state.loop, profile=profile)
    except RequestError as exc:
        return anthropic_error(exc)
    counted = await entry.backend.count_tokens(prompt)
    if counted is not None:
        return JSONResponse({"input_tokens": counted})
    return JSONResponse({"input_tokens": _estimate(prompt)}, headers={"x-shim-token-count": "estimate"})


def _estimate(prompt: Sequence[Message]) -> int:
    return max(1, sum(len(m.content.encode("utf-8")) + 16 for m in prompt) // 4)


class _Events:
    """One response's `Output` items as Anthropic's SSE events (streaming) or a message (collected)."""

    media_type = b"text/event-stream; charset=utf-8"

    def __init__(self, model: str, *, hide_thinking: bool = False) -> None:
        self.id = object_id("msg_")
        self.model = model
        self.hide_thinking = hide_thinking
        self.index = -1
        self.open: str | None = None  # the type of the block being streamed ("text", "thinking"), if any

    @staticmethod
    def _event(data: dict[str, Any]) -> bytes:
        return sse(data, event=str(data["type"]))

    def _message(self, content: list[dict[str, Any]], stop: str | None, usage: dict[str, int]) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }

    def begin(self) -> list[bytes]:
        start = self._message([], None, {"input_tokens": 0, "output_tokens": 0})
        return [self._event({"type": "message_start", "message": start}), self._event({"type": "ping"})]

    def _close(self) -> list[bytes]:
        if self.open is None:
            return []
        self.open = None
        return [self._event({"type": "content_block_stop", "index": self.index})]

    def _start(self, block: dict[str, Any]) -> list[bytes]:
        out = self._close()
        self.index += 1
        self.open = block["type"] if block["type"] in ("text", "thinking") else None
        out.append(self._event({"type": "content_block_start", "index": self.index, "content_block": block}))
        return out

    def _delta(self, delta: dict[str, Any]) -> bytes:
        return self._event({"type": "content_block_delta", "index": self.index, "delta": delta})

    def encode(self, output: Output) -> list[bytes]:
        match output:
            case TextOut():
                out = [] if self.open == "text" else self._start({"type": "text", "text": ""})
                return [*out, self._delta({"type": "text_delta", "text": output.text})]
            case ReasoningOut():
                if self.hide_thinking:
                    return []
                out = (
                    []
                    if self.open == "thinking"
                    else self._start({"type": "thinking", "thinking": "", "signature": ""})
                )
                return [*out, self._delta({"type": "thinking_delta", "thinking": output.text})]
            case CallOut():
                block: dict[str, Any] = {
                    "type": "tool_use",
                    "id": tool_use_id(output.id),
                    "name": output.name,
                    "input": {},
                }
                out = self._start(block)
                out += [
                    self._delta({"type": "input_json_delta", "partial_json": f}) for f in output.fragments or ("{}",)
                ]
                out.append(self._event({"type": "content_block_stop", "index": self.index}))
                return out
            case FinishOut():
                usage = {"input_tokens": output.prompt_tokens, "output_tokens": output.completion_tokens}
                delta = {"stop_reason": _stop_reason(output), "stop_sequence": None}
                return [
                    *self._close(),
                    self._event({"type": "message_delta", "delta": delta, "usage": usage}),
                    self._event({"type": "message_stop"}),
                ]

    def end(self) -> list[bytes]:
        return []

    def stream_error(self, error: RequestError) -> bytes:
        return self._event(error_body(error))

    def error_body(self, error: RequestError) -> Any:
        return error_body(error)

    def whole(self, outputs: list[Output]) -> dict[str, Any]:
        """The non-streaming message: blocks in the order they were written, like kinds merged."""
        content: list[dict[str, Any]] = []
        for output in outputs:
            last = content[-1] if content else {}
            match output:
                case TextOut():
                    if last.get("type") == "text":
                        last["text"] += output.text
                    else:
                        content.append({"type": "text", "text": output.text})
                case ReasoningOut() if not self.hide_thinking:
                    if last.get("type") == "thinking":
                        last["thinking"] += output.text
                    else:
                        content.append({"type": "thinking", "thinking": output.text, "signature": ""})
                case CallOut():
                    block = {"type": "tool_use", "id": tool_use_id(output.id), "name": output.name}
                    content.append(block | {"input": output.arguments})
                case _:
                    pass
        finish = next(o for o in outputs if isinstance(o, FinishOut))
        usage = {"input_tokens": finish.prompt_tokens, "output_tokens": finish.completion_tokens}
        return self._message(content, _stop_reason(finish), usage)


def _stop_reason(finish: FinishOut) -> str:
    return {"tool_calls": "tool_use", "length": "max_tokens"}.get(finish.reason, "end_turn")
