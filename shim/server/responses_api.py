"""The OpenAI Responses surface: ``POST /v1/responses`` (stateless; see `shim.server.wire.responses`).

A stream, each an SSE event named by its ``type`` and numbered by ``sequence_number``::

    response.created / response.in_progress        the response, status "in_progress", no output yet
    response.output_item.added                     a message, reasoning or function_call item opens
    response.content_part.added                    (message) an empty output_text part
    response.output_text.delta                     text          (response.reasoning_text.delta: reasoning)
    response.function_call_arguments.delta         a call's argument fragment
    response.function_call_arguments.done         the whole arguments
    response.output_text.done / content_part.done
    response.output_item.done                      the item, complete
    response.completed                             the whole response (response.incomplete at max_output_tokens)

The non-streaming answer is the response object of ``response.completed``; both are built by one encoder.
A call of a tool that came in a ``namespace`` group goes out under its own name with ``namespace`` beside it.
Hosted tools left out of the prompt are named in ``x-shim-dropped-tools``.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from shim.ids import object_id
from shim.server.chat import CallOut, ChatRequest, FinishOut, Output, ReasoningOut, TextOut
from shim.server.http import (
    RequestError,
    Watched,
    is_obj,
    names_header,
    respond,
)
from shim.server.models import ServerState
from shim.server.sse import error_body, sse
from shim.server.wire import validate
from shim.server.wire.responses import ResponsesCall, ResponsesRequest, to_chat

__all__ = ["responses"]


def _read(body: Any) -> tuple[ResponsesCall, ResponsesRequest]:
    wire = validate(ResponsesRequest, body)
    return to_chat(wire), wire


async def responses(request: Request) -> Response | Watched:
    state: ServerState = request.app.state.shim
    try:
        call, wire = await state.read(request, _read)
        chat = call.chat
        entry = state.models.get(chat.model)
    except RequestError as exc:
        return JSONResponse(error_body(exc), status_code=exc.status)
    outputs = await state.outputs(entry, chat)
    encoder = _Events(entry.name, call, wire)
    headers = names_header(b"x-shim-dropped-tools", call.dropped_tools)
    return respond(outputs, encoder, stream=call.stream, build=encoder.whole, headers=headers)


class _Events:
    """`Output` items -> Responses events, keeping the output items for the final response object."""

    media_type = b"text/event-stream; charset=utf-8"

    def __init__(self, model: str, call: ResponsesCall, wire: ResponsesRequest) -> None:
        self.id = object_id("resp_")
        self.created = int(time.time())
        self.model = model
        self.chat: ChatRequest = call.chat
        self.namespaces = call.namespaces
        self.wire = wire
        self.sequence = 0
        self.items: list[dict[str, Any]] = []
        self.open: dict[str, Any] | None = None  # the message or reasoning item being streamed

    def _event(self, kind: str, **data: Any) -> bytes:
        event = {"type": kind, "sequence_number": self.sequence, **data}
        self.sequence += 1
        return sse(event, event=kind)

    def response(self, status: str, finish: FinishOut | None = None) -> dict[str, Any]:
        tools = [
            {
                "type": "function",
                "name": t.name,
                "description": t.description,
                "parameters": t.input_schema,
                "strict": False,
            }
            for t in self.chat.tools
        ]
        choice = self.chat.tool_choice
        usage = None
        if finish is not None:
            usage = {
                "input_tokens": finish.prompt_tokens,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens": finish.completion_tokens,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": finish.prompt_tokens + finish.completion_tokens,
            }
        incomplete = {"reason": "max_output_tokens"} if status == "incomplete" else None
        return {
            "id": self.id,
            "object": "response",
            "created_at": self.created,
            "status": status,
            "model": self.model,
            "output": list(self.items),
            "usage": usage,
            "error": None,
            "incomplete_details": incomplete,
            "instructions": self.wire.instructions,
            "max_output_tokens": self.wire.max_output_tokens,
            "metadata": self.wire.metadata or {},
            "parallel_tool_calls": self.chat.parallel_tool_calls,
            "previous_response_id": None,
            "store": False,
            "temperature": self.wire.temperature,
            "top_p": self.wire.top_p,
            "text": {"format": {"type": "text"}},
            "tool_choice": choice if isinstance(choice, str) else {"type": "function", "name": _named(choice)},
            "tools": tools,
            "truncation": "disabled",
        }

    def begin(self) -> list[bytes]:
        start = self.response("in_progress")
        return [self._event("response.created", response=start), self._event("response.in_progress", response=start)]

    def _close(self) -> list[bytes]:
        item, self.open = self.open, None
        if item is None:
            return []
        index = len(self.items)
        self.items.append(item)
        if item["type"] == "reasoning":
            text = item["content"][0]["text"]
            done = [
                self._event(
                    "response.reasoning_text.done", item_id=item["id"], output_index=index, content_index=0, text=text
                )
            ]
        else:
            part = item["content"][0]
            done = [
                self._event(
                    "response.output_text.done",
                    item_id=item["id"],
                    output_index=index,
                    content_index=0,
                    text=part["text"],
                    logprobs=[],
                ),
                self._event(
                    "response.content_part.done", item_id=item["id"], output_index=index, content_index=0, part=part
                ),
            ]
        item["status"] = "completed"
        return [*done, self._event("response.output_item.done", output_index=index, item=item)]

    def _open(self, kind: str) -> list[bytes]:
        out = self._close()
        index = len(self.items)
        if kind == "reasoning":
            self.open = {
                "id": object_id("rs_"),
                "type": "reasoning",
                "summary": [],
                "content": [{"type": "reasoning_text", "text": ""}],
            }
            return [*out, self._event("response.output_item.added", output_index=index, item=_shell(self.open))]
        self.open = {
            "id": object_id("msg_"),
            "type": "message",
            "role": "assistant",
            "status": "in_progress",
            "content": [{"type": "output_text", "text": "", "annotations": [], "logprobs": []}],
        }
        empty: dict[str, Any] = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
        return [
            *out,
            self._event("response.output_item.added", output_index=index, item=_shell(self.open)),
            self._event(
                "response.content_part.added", item_id=self.open["id"], output_index=index, content_index=0, part=empty
            ),
        ]

    def encode(self, output: Output) -> list[bytes]:
        index = len(self.items)
        match output:
            case TextOut() | ReasoningOut():
                kind = "message" if isinstance(output, TextOut) else "reasoning"
                out = [] if self.open is not None and self.open["type"] == kind else self._open(kind)
                assert self.open is not None
                index = len(self.items)  # the open item's place (it joins the items when it closes)
                self.open["content"][0]["text"] += output.text
                name = "response.output_text.delta" if kind == "message" else "response.reasoning_text.delta"
                extra: dict[str, Any] = {"logprobs": []} if kind == "message" else {}
                delta = self._event(
                    name, item_id=self.open["id"], output_index=index, content_index=0, delta=output.text, **extra
                )
                return [*out, delta]
            case CallOut():
                out = self._close()
                index = len(self.items)
                item: dict[str, Any] = {
                    "id": object_id("fc_"),
                    "type": "function_call",
                    "call_id": output.id,
                    "name": output.name,
                    "arguments": "",
                    "status": "in_progress",
                }
                if output.name in self.namespaces:
                    item["namespace"], item["name"] = self.namespaces[output.name]
                out.append(self._event("response.output_item.added", output_index=index, item=dict(item)))
                for fragment in output.fragments or ("{}",):
                    out.append(
                        self._event(
                            "response.function_call_arguments.delta",
                            item_id=item["id"],
                            output_index=index,
                            delta=fragment,
                        )
                    )
                item |= {"arguments": output.arguments_json, "status": "completed"}
                out.append(
                    self._event(
                        "response.function_call_arguments.done",
                        item_id=item["id"],
                        output_index=index,
                        name=output.name,
                        arguments=output.arguments_json,
                    )
                )
                out.append(self._event("response.output_item.done", output_index=index, item=item))
                self.items.append(item)
                return out
            case FinishOut():
                out = self._close()
                status = "incomplete" if output.reason == "length" else "completed"
                return [*out, self._event(f"response.{status}", response=self.response(status, output))]

    def end(self) -> list[bytes]:
        return []

    def stream_error(self, error: RequestError) -> bytes:
        return self._event("error", code=error.code, message=error.message, param=error.param)

    def error_body(self, error: RequestError) -> Any:
        return error_body(error)

    def whole(self, outputs: list[Output]) -> dict[str, Any]:
        """The non-streaming answer: the same items the stream would have built."""
        finish: FinishOut | None = None
        for output in outputs:
            self.encode(output)
            if isinstance(output, FinishOut):
                finish = output
        assert finish is not None
        return self.response("incomplete" if finish.reason == "length" else "completed", finish)


def _shell(item: dict[str, Any]) -> dict[str, Any]:
    """An item as announced when it opens: no content yet."""
    return item | {"content": [], "status": "in_progress"} if item["type"] == "message" else item | {"content": []}


def _named(choice: Any) -> str | None:
    function: Any = choice.get("function") if is_obj(choice) else None
    name: Any = function.get("name") if is_obj(function) else None
    return name if isinstance(name, str) else None
