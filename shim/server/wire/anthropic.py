"""Anthropic's Messages request (``POST /v1/messages``) as a model, reduced to a `ChatRequest`.

Used: ``model``, ``max_tokens`` (required, as Anthropic requires it), ``system`` (text or text blocks),
``messages`` with ``text`` / ``image`` / ``document`` / ``tool_use`` / ``tool_result`` (string or block list,
``is_error``) / ``thinking`` blocks, ``role: "system"`` messages anywhere in ``messages`` (folded into the
system prompt in their order, as Anthropic's API does), ``tools`` (``input_schema``; any other dialect works
too), ``tool_choice`` (``auto``, ``any``, ``tool``, ``none``, ``disable_parallel_tool_use``),
``stop_sequences``, ``temperature``, ``top_p``, ``stream``, ``thinking`` (``disabled`` hides reasoning from
the answer; ``enabled`` and ``adaptive`` show it) and ``output_config.format`` (a JSON schema the answer must
match: `shim.constrain.structured`; the older ``output_format`` too).
Images (base64, or a URL that is passed on, never fetched) reach a model that can see, and a text-only model
as a placeholder naming their type and size; a document becomes a placeholder too. ``cache_control`` marks
are accepted anywhere (nothing is cached across requests).

Not applied, and named in the response header ``x-shim-ignored-params``: ``context_management``,
``output_config.effort``, ``top_k``, ``metadata``, ``service_tier``, ``mcp_servers`` and any other field.
Tools that have no schema (Anthropic's server tools such as ``web_search_20250305``, and schema-less built-ins
such as ``bash_20250124``) are left out of the prompt and named in ``x-shim-dropped-tools``. ``thread``
(server-kept conversation state) is refused with a 400 that says why in Anthropic's own terms
(``error.details.error_code: "thread_unsupported_request"``): this server keeps none, and the anthropic SDK's
tool runner then sends the whole conversation, as it does for any server that cannot thread a request.

Tool-use ids: the loop's ids are ``call_…``; they go out as ``toolu_…`` and come back in by the same rule,
so a client's ``tool_result`` finds its call (and the server's saved tool rounds) again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from shim.backends.base import GenerationOptions
from shim.constrain.structured import StructuredOutput, parse_response_format
from shim.prompting import ToolChoice
from shim.server.chat import ChatRequest
from shim.server.http import RequestError, is_obj
from shim.server.wire import Wire, image_data_url, structured
from shim.server.wire.openai_chat import MAX_INT, check_messages
from shim.server.wire.tools import parse_tools, split_hosted
from shim.types import size_text

__all__ = ["THREAD_UNSUPPORTED", "MessagesCall", "MessagesRequest", "from_tool_use_id", "to_chat", "tool_use_id"]

THREAD_UNSUPPORTED = "thread_unsupported_request"
"""The error code of a request refused for its ``thread``: Anthropic's own, with which the anthropic SDK's tool
runner (threaded by default) goes on without a thread, sending the whole history."""


class Block(Wire):
    type: str
    text: str | None = None
    id: str | None = None
    name: str | None = None
    input: dict[str, Any] | None = None
    tool_use_id: str | None = None
    content: str | list[dict[str, Any]] | None = None
    is_error: bool | None = None
    source: dict[str, Any] | None = None
    thinking: str | None = None


class AnthropicMessage(Wire):
    role: Literal["user", "assistant", "system"]
    content: str | list[Block]


class ToolChoiceIn(Wire):
    type: Literal["auto", "any", "tool", "none"]
    name: str | None = None
    disable_parallel_tool_use: bool | None = None


class Thinking(Wire):
    type: Literal["enabled", "disabled", "adaptive"]
    budget_tokens: int | None = None


class MessagesRequest(Wire):
    model: Any = None
    max_tokens: Annotated[int, Field(ge=1, le=MAX_INT)]
    messages: Annotated[list[AnthropicMessage], Field(min_length=1)]
    system: str | list[Block] | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: ToolChoiceIn | None = None
    stop_sequences: list[str] | None = None
    temperature: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] | None = None
    top_p: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] | None = None
    top_k: Annotated[int, Field(ge=0, le=MAX_INT)] | None = None
    stream: bool | None = None
    thinking: Thinking | None = None
    output_config: dict[str, Any] | None = None
    output_format: dict[str, Any] | None = None
    thread: Any = None

    @field_validator("stop_sequences")
    @classmethod
    def _stops(cls, value: list[str] | None) -> list[str] | None:
        if value and any(not s.strip() for s in value):
            raise ValueError("stop sequences must contain non-whitespace")
        return value


def tool_use_id(call_id: str) -> str:
    """The loop's call id as Anthropic writes tool-use ids."""
    return "toolu_" + call_id.removeprefix("call_")


def from_tool_use_id(block_id: str) -> str:
    """A client's tool-use id as the loop's call id (ids that did not come from here are kept as they are)."""
    return "call_" + block_id.removeprefix("toolu_") if block_id.startswith("toolu_") else block_id


_USED = frozenset(
    {
        "model",
        "max_tokens",
        "messages",
        "system",
        "tools",
        "tool_choice",
        "stop_sequences",
        "temperature",
        "top_p",
        "stream",
        "thinking",
        "output_config",
        "output_format",
    }
)


@dataclass(frozen=True, kw_only=True)
class MessagesCall:
    """A Messages request as the loop runs it, with what the response must say about it."""

    chat: ChatRequest
    stream: bool
    hide_thinking: bool
    """``thinking: {"type": "disabled"}``: reasoning is left out of the answer."""
    ignored: list[str] = field(default_factory=list[str])
    """Fields accepted but not applied (``x-shim-ignored-params``)."""
    dropped_tools: list[str] = field(default_factory=list[str])
    """Kinds of the tools left out of the prompt (``x-shim-dropped-tools``)."""


def to_chat(body: MessagesRequest) -> MessagesCall:
    """The request the loop runs, and what the response must say about it.

    Raises:
        RequestError: 400 naming the field at fault.
    """
    if body.thread is not None:
        raise RequestError(
            400,
            "this server keeps no state, so 'thread' cannot be used: send the whole conversation in 'messages'",
            param="thread",
            code=THREAD_UNSUPPORTED,
        )
    offered, dropped = split_hosted(body.tools)
    tools = parse_tools(offered)
    choice, parallel = _choice(body.tool_choice)
    messages: list[dict[str, Any]] = []
    system = [_system(body.system)]
    _check_tool_use_ids(body.messages)
    for n, message in enumerate(body.messages):
        if message.role == "system":  # folded into the system prompt, in order
            system.append(_system(message.content))
        else:
            messages.extend(_messages(n, message))
    prompt = "\n\n".join(s for s in system if s)
    if prompt:
        messages.insert(0, {"role": "system", "content": prompt})
    if not any(m["role"] != "system" for m in messages):
        raise RequestError(400, "'messages' needs at least one user or assistant message", param="messages")
    options = GenerationOptions(
        temperature=body.temperature,
        top_p=body.top_p,
        max_tokens=body.max_tokens,
        stop=tuple(body.stop_sequences or ()),
    )
    chat = ChatRequest(
        model=body.model,
        messages=check_messages(messages),
        tools=tools,
        tool_choice=choice,
        parallel_tool_calls=parallel,
        options=options,
        structured=_format(body),
    )
    ignored = sorted(k for k in body.model_fields_set | set(body.model_extra or {}) if k not in _USED)
    if body.output_config and "effort" in body.output_config:
        ignored.append("output_config.effort")
    hide_thinking = body.thinking is not None and body.thinking.type == "disabled"
    return MessagesCall(
        chat=chat,
        stream=body.stream is True,
        hide_thinking=hide_thinking,
        ignored=ignored,
        dropped_tools=dropped,
    )


def _format(body: MessagesRequest) -> StructuredOutput | None:
    """``output_config.format`` (or the older ``output_format``): ``{"type": "json_schema", "schema": {...}}``.

    Raises:
        RequestError: 400 naming the field for a format that is not a JSON schema.
    """
    param = "output_config.format"
    value: Any = (body.output_config or {}).get("format")
    if value is None and body.output_format is not None:
        value, param = body.output_format, "output_format"
    if value is None:
        return None
    if not is_obj(value) or value.get("type") != "json_schema" or not is_obj(value.get("schema")):
        raise RequestError(400, f"'{param}' must be {{'type': 'json_schema', 'schema': {{...}}}}", param=param)
    spec = {"type": "json_schema", "json_schema": {"name": "output", "schema": value["schema"]}}
    return structured(parse_response_format, spec, param)


def _check_tool_use_ids(messages: list[AnthropicMessage]) -> None:
    """Every ``tool_result`` answers a ``tool_use`` of an earlier assistant message, as Anthropic requires.

    Raises:
        RequestError: 400 naming the block and its id.
    """
    seen: set[str] = set()
    for n, message in enumerate(messages):
        for m, block in enumerate(message.content if isinstance(message.content, list) else []):
            if block.type == "tool_use" and block.id:
                seen.add(block.id)
            elif block.type == "tool_result" and block.tool_use_id and block.tool_use_id not in seen:
                where = f"messages[{n}].content[{m}]"
                raise RequestError(
                    400,
                    f"{where}: the tool_result for tool_use_id {block.tool_use_id!r} answers no tool_use block of an "
                    "earlier assistant message",
                    param=where,
                )


def _choice(choice: ToolChoiceIn | None) -> tuple[ToolChoice, bool]:
    if choice is None:
        return "auto", True
    parallel = choice.disable_parallel_tool_use is not True
    if choice.type == "auto":
        return "auto", parallel
    if choice.type == "none":
        return "none", parallel
    if choice.type == "any":  # whether there is a tool to call, or one of this name, is the loop's to decide
        return "required", parallel
    if not choice.name:
        raise RequestError(400, "tool_choice of type 'tool' needs the tool's 'name'", param="tool_choice.name")
    return {"type": "function", "function": {"name": choice.name}}, parallel


def _system(system: str | list[Block] | None) -> str:
    """A system prompt (or a ``system`` message's content) as text: its text blocks, joined. Claude Code's
    billing block (``x-anthropic-billing-header: cc_version=…``) is metadata for Anthropic's API, not an
    instruction, and is left out."""
    if system is None or isinstance(system, str):
        return system or ""
    texts = [block.text or "" for block in system if block.type == "text"]
    return "\n\n".join(t for t in texts if not t.startswith(_BILLING))


_BILLING = "x-anthropic-billing-header:"


def _messages(n: int, message: AnthropicMessage) -> list[dict[str, Any]]:
    """One Anthropic message -> OpenAI-style messages (tool results become ``tool`` messages, first)."""
    if isinstance(message.content, str):
        return [{"role": message.role, "content": message.content}]
    parts: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for m, block in enumerate(message.content):
        where = f"messages[{n}].content[{m}]"
        match block.type:
            case "text":
                parts.append({"type": "text", "text": block.text or ""})
            case "image" | "document":
                parts.append(_media(block, where))
            case "tool_use" if message.role == "assistant":
                if not block.id or not block.name:
                    raise RequestError(400, f"{where}: a tool_use block needs 'id' and 'name'", param=where)
                arguments = json.dumps(block.input or {}, ensure_ascii=False)
                calls.append(
                    {
                        "id": from_tool_use_id(block.id),
                        "type": "function",
                        "function": {"name": block.name, "arguments": arguments},
                    }
                )
            case "tool_result" if message.role == "user":
                if not block.tool_use_id:
                    raise RequestError(400, f"{where}: a tool_result block needs 'tool_use_id'", param=where)
                content = (
                    block.content
                    if isinstance(block.content, str)
                    else [_result_part(p, f"{where}.content[{k}]") for k, p in enumerate(block.content or [])]
                )
                results.append(
                    {
                        "role": "tool",
                        "tool_call_id": from_tool_use_id(block.tool_use_id),
                        "content": content,
                        "is_error": bool(block.is_error),
                    }
                )
            case "thinking" | "redacted_thinking":
                pass  # the model's earlier reasoning is not shown to it again
            case _:
                raise RequestError(
                    400, f"{where}: a {block.type!r} block is not supported in a {message.role} message", param=where
                )
    out: list[dict[str, Any]] = list(results)
    if parts or calls or not results:
        turn: dict[str, Any] = {"role": message.role, "content": parts}
        if calls:
            turn["tool_calls"] = calls
        out.append(turn)
    return out


def _result_part(part: dict[str, Any], where: str) -> dict[str, Any]:
    if part.get("type") in ("image", "document"):
        return _media(Block.model_validate(part), where)
    return part


def _media(block: Block, where: str) -> dict[str, Any]:
    """An image as an ``image_url`` part (base64 as a ``data:`` URL; a URL as it is, never fetched here); a
    document as its text, or a placeholder naming it (no engine here reads PDFs).

    Raises:
        RequestError: 400 naming the field for base64 data that is not valid.
    """
    source = block.source or {}
    kind = source.get("type")
    if kind == "text":
        return {"type": "text", "text": str(source.get("data") or "")}
    if block.type == "document":
        if kind == "base64":
            size = size_text(str(source.get("data") or ""))
            return {"type": "text", "text": f"[document: {source.get('media_type') or 'unknown type'}, {size}]"}
        return {"type": "text", "text": f"[document: {source.get('url') or source.get('file_id') or 'unknown'}]"}
    if kind == "base64":
        url = image_data_url(source.get("data"), source.get("media_type"), f"{where}.source.data")
    else:
        url = str(source.get("url") or source.get("file_id") or "unknown source")
    return {"type": "image_url", "image_url": {"url": url}}
