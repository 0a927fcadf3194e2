"""Anthropic's Messages request (``POST /v1/messages``) as a model, reduced to a `ChatRequest`.

Used: ``model``, ``max_tokens`` (required, as Anthropic requires it), ``system`` (text or text blocks),
``messages`` with ``text`` / ``image`` / ``document`` / ``tool_use`` / ``tool_result`` (string or block list,
``is_error``) / ``thinking`` blocks, ``tools`` (``input_schema``; any other dialect works too),
``tool_choice`` (``auto``, ``any``, ``tool``, ``none``, ``disable_parallel_tool_use``), ``stop_sequences``,
``temperature``, ``top_p``, ``stream`` and ``thinking`` (``disabled`` hides reasoning from the answer).
Images (base64, or a URL that is passed on, never fetched) reach a model that can see, and a text-only model
as a placeholder naming their type and size; a document becomes a placeholder too. Other fields (``metadata``,
``top_k``, ``service_tier``...) are accepted and ignored.

Tool-use ids: the loop's ids are ``call_…``; they go out as ``toolu_…`` and come back in by the same rule,
so a client's ``tool_result`` finds its call (and the server's saved tool rounds) again.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from shim.backends.base import GenerationOptions
from shim.prompting import ToolChoice
from shim.server.chat import ChatRequest
from shim.server.http import RequestError
from shim.server.wire import Wire, image_data_url
from shim.server.wire.openai_chat import MAX_INT, check_messages
from shim.server.wire.tools import parse_tools
from shim.types import size_text

__all__ = ["MessagesRequest", "from_tool_use_id", "to_chat", "tool_use_id"]


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
    role: Literal["user", "assistant"]
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


def to_chat(body: MessagesRequest) -> tuple[ChatRequest, bool, bool]:
    """The request the loop runs, ``stream``, and whether reasoning is hidden (``thinking`` disabled).

    Raises:
        RequestError: 400 naming the field at fault.
    """
    tools = parse_tools(body.tools)
    choice, parallel = _choice(body.tool_choice)
    messages: list[dict[str, Any]] = []
    system = _system(body.system)
    if system:
        messages.append({"role": "system", "content": system})
    for n, message in enumerate(body.messages):
        messages.extend(_messages(n, message))
    check_messages(messages)
    options = GenerationOptions(
        temperature=body.temperature,
        top_p=body.top_p,
        max_tokens=body.max_tokens,
        stop=tuple(body.stop_sequences or ()),
    )
    chat = ChatRequest(
        model=body.model,
        messages=messages,
        tools=tools,
        tool_choice=choice,
        parallel_tool_calls=parallel,
        options=options,
    )
    hide_thinking = body.thinking is not None and body.thinking.type == "disabled"
    return chat, body.stream is True, hide_thinking


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
    if system is None or isinstance(system, str):
        return system or ""
    return "\n\n".join(block.text or "" for block in system if block.type == "text")


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
