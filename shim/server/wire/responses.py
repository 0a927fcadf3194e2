"""OpenAI's Responses request (``POST /v1/responses``) as a model, reduced to a `ChatRequest`.

Stateless: the whole conversation comes in ``input`` (text, or items: ``message``, ``function_call``,
``function_call_output``, ``reasoning``); ``previous_response_id`` and ``item_reference`` are refused with a
400 that says so. Used: ``instructions``, function ``tools`` (the flat Responses shape, or any other dialect),
``tool_choice``, ``parallel_tool_calls``, ``max_output_tokens``, ``temperature``, ``top_p``, ``stream``;
``text.format`` other than text is handed on as ``response_format``. ``store``, ``metadata``, ``user``,
``reasoning``, ``include``, ``truncation`` and other fields are accepted and ignored (nothing is stored).

``namespace`` tools (a named group of function tools, as Codex sends) are flattened into their function tools,
each under its own name (qualified as ``namespace.name`` only where two would clash); a call of one goes back
out as a ``function_call`` with ``name`` and ``namespace`` as the group had them, and comes back in the same
way. Hosted tools the vendor runs (``web_search``, ``file_search``, ``code_interpreter``…) are left out of
the prompt and named in the response header ``x-shim-dropped-tools``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Any, cast

from pydantic import Field

from shim.backends.base import GenerationOptions
from shim.constrain.structured import parse_response_format
from shim.server.chat import ChatRequest
from shim.server.http import RequestError, is_obj
from shim.server.wire import ToolChoiceIn, Wire, check_image_url, structured
from shim.server.wire.openai_chat import MAX_INT, check_messages
from shim.server.wire.tools import choose_tools, parse_tools, split_hosted

__all__ = ["ResponsesCall", "ResponsesRequest", "to_chat"]


class ResponsesRequest(Wire):
    model: Any = None
    input: str | list[dict[str, Any]]
    instructions: str | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: ToolChoiceIn = None
    parallel_tool_calls: bool | None = None
    max_output_tokens: Annotated[int, Field(ge=1, le=MAX_INT)] | None = None
    temperature: Annotated[float, Field(ge=0, le=2, allow_inf_nan=False)] | None = None
    top_p: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] | None = None
    stream: bool | None = None
    store: bool | None = None
    previous_response_id: str | None = None
    text: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class ResponsesCall:
    """A Responses request as the loop runs it, with what the response needs to answer in its terms."""

    chat: ChatRequest
    stream: bool
    namespaces: dict[str, tuple[str, str]] = field(default_factory=dict[str, tuple[str, str]])
    """Flattened tool name -> (namespace, the tool's name in it), for the tools of ``namespace`` groups."""
    dropped_tools: list[str] = field(default_factory=list[str])
    """Kinds of the hosted tools left out of the prompt (``x-shim-dropped-tools``)."""


def to_chat(body: ResponsesRequest) -> ResponsesCall:
    """The request the loop runs, and what its response needs.

    Raises:
        RequestError: 400 naming the field or input item at fault.
    """
    if body.previous_response_id is not None:
        raise RequestError(
            400,
            "this server keeps no state, so 'previous_response_id' cannot be used: send the whole conversation in "
            "'input' (with store: false)",
            param="previous_response_id",
        )
    offered, dropped = split_hosted(body.tools)
    flat, namespaces = _flatten(offered)
    tools = parse_tools(flat)
    tool_choice, tools = choose_tools(body.tool_choice, tools)
    qualified = {spec: name for name, spec in namespaces.items()}
    messages: list[dict[str, Any]] = [{"role": "system", "content": body.instructions}] if body.instructions else []
    if isinstance(body.input, str):
        messages.append({"role": "user", "content": body.input})
    else:
        for n, item in enumerate(body.input):
            _item(messages, n, item, qualified)
    conversation = check_messages(messages)
    text_format: Any = (body.text or {}).get("format")
    if is_obj(text_format) and text_format.get("type") == "json_schema":
        # Responses puts name / schema / strict beside the type; Chat Completions nests them in json_schema.
        inner = {k: v for k, v in text_format.items() if k != "type"}
        text_format = {"type": "json_schema", "json_schema": inner}
    chat = ChatRequest(
        model=body.model,
        messages=conversation,
        tools=tools,
        tool_choice=tool_choice,
        parallel_tool_calls=body.parallel_tool_calls is not False,
        options=GenerationOptions(temperature=body.temperature, top_p=body.top_p, max_tokens=body.max_output_tokens),
        structured=structured(parse_response_format, text_format, "text.format"),
    )
    return ResponsesCall(chat=chat, stream=body.stream is True, namespaces=namespaces, dropped_tools=dropped)


def _flatten(tools: list[Any]) -> tuple[list[Any], dict[str, tuple[str, str]]]:
    """``namespace`` groups replaced by their function tools, and where each flattened one came from.

    Raises:
        RequestError: 400 for a ``namespace`` tool without a name or a list of tools.
    """
    flat: list[Any] = []
    groups: list[tuple[str, dict[str, Any]]] = []
    for n, tool in enumerate(tools):
        if not (is_obj(tool) and tool.get("type") == "namespace"):
            flat.append(tool)
            continue
        name, members = tool.get("name"), tool.get("tools")
        if not isinstance(name, str) or not name or not isinstance(members, list):
            raise RequestError(
                400, f"tools[{n}]: a namespace tool needs a 'name' and a list of 'tools'", param=f"tools[{n}]"
            )
        groups.extend((name, m) for m in cast("list[Any]", members) if is_obj(m))
    taken = [t.get("name") for t in flat if is_obj(t)] + [m.get("name") for _, m in groups]
    namespaces: dict[str, tuple[str, str]] = {}
    for namespace, member in groups:
        inner = member.get("name")
        if not isinstance(inner, str):
            flat.append(member)  # parse_tools says what is wrong with it
            continue
        name = inner if taken.count(inner) == 1 else f"{namespace}.{inner}"
        namespaces[name] = (namespace, inner)
        flat.append(member | {"name": name})
    return flat, namespaces


def _item(messages: list[dict[str, Any]], n: int, item: dict[str, Any], qualified: dict[tuple[str, str], str]) -> None:
    """Append one input item to ``messages`` (OpenAI chat form); a call of a ``namespace`` tool takes the
    flattened name it was offered under (``qualified``)."""
    where = f"input[{n}]"
    kind = item.get("type", "message" if "role" in item else None)
    if kind == "message":
        role = item.get("role")
        if role not in ("user", "assistant", "system", "developer"):
            raise RequestError(
                400, f"{where}.role must be user, assistant, system or developer; got {role!r}", param=f"{where}.role"
            )
        content = item.get("content")
        if isinstance(content, list):
            content = [_part(f"{where}.content[{m}]", p) for m, p in enumerate(content)]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        elif not isinstance(content, str):
            raise RequestError(400, f"{where}.content must be a string or a list of parts", param=f"{where}.content")
        messages.append({"role": role, "content": content})
    elif kind == "function_call":
        call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments", "{}")
        if not isinstance(call_id, str) or not isinstance(name, str) or not isinstance(arguments, str):
            raise RequestError(
                400, f"{where}: a function_call item needs string 'call_id', 'name' and 'arguments'", param=where
            )
        namespace = item.get("namespace")
        if isinstance(namespace, str):
            name = qualified.get((namespace, name), f"{namespace}.{name}")
        call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
        last = messages[-1] if messages else None
        if last is not None and last["role"] == "assistant":
            last.setdefault("tool_calls", []).append(call)  # several calls of one turn come as several items
        else:
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
    elif kind == "function_call_output":
        call_id, output = item.get("call_id"), item.get("output")
        if not isinstance(call_id, str) or not isinstance(output, str | list):
            raise RequestError(
                400, f"{where}: a function_call_output item needs a string 'call_id' and an 'output'", param=where
            )
        parts: list[Any] = [] if isinstance(output, str) else cast("list[Any]", output)
        content = output if isinstance(output, str) else [_part(f"{where}.output[{k}]", p) for k, p in enumerate(parts)]
        messages.append({"role": "tool", "tool_call_id": call_id, "content": content})
    elif kind == "reasoning":
        pass  # earlier reasoning is not shown to the model again
    elif kind == "item_reference":
        raise RequestError(400, f"{where}: 'item_reference' needs stored items; this server keeps none", param=where)
    else:
        raise RequestError(400, f"{where}: input items of type {kind!r} are not supported", param=f"{where}.type")


def _part(where: str, part: Any) -> dict[str, Any]:
    if not isinstance(part, dict):
        raise RequestError(400, f"{where} must be an object", param=where)
    data: dict[str, Any] = part  # pyright: ignore[reportUnknownVariableType]
    kind = data.get("type")
    if kind in ("input_text", "output_text", "text", "refusal"):
        return {"type": "text", "text": str(data.get("text") or data.get("refusal") or "")}
    if kind == "input_image":
        if data.get("image_url") is None and isinstance(data.get("file_id"), str):
            return {"type": "text", "text": f"[image: file {data['file_id']}]"}  # stored files: none here
        return {"type": "image_url", "image_url": {"url": check_image_url(data.get("image_url"), f"{where}.image_url")}}
    if kind == "input_file":
        name = data.get("filename") or data.get("file_id") or data.get("file_url") or "unnamed"
        return {"type": "text", "text": f"[file: {name}]"}
    raise RequestError(400, f"{where}: content parts of type {json.dumps(kind)} are not supported", param=where)
