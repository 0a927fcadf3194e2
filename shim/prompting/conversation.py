"""OpenAI-style chat messages -> plain system/user/assistant messages for a model without native tools.

- Leading ``system``/``developer`` messages merge into one system message, followed by the tool prompt.
  A system message later in the conversation becomes a user-side ``System: ...`` note, because many chat
  templates reject a system message anywhere but first.
- An assistant's ``tool_calls`` are re-rendered as call blocks after its text, exactly as the dialect
  tells the model to write them, so the model sees its own earlier calls in the form it should repeat.
- ``tool`` results go into one user message per run of results, in the order of the calls they answer,
  each wrapped in the dialect's result tag (never the call tag) and marked ``error="true"`` on failure.
- Image, audio and binary parts become short placeholders such as ``[image: image/png, 12 KB]``.
- Consecutive messages of the same role are merged, since several chat templates insist on alternation.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from shim.prompting._json import is_arr, is_obj
from shim.prompting.dialects import DEFAULT_DIALECT, PromptDialect, get_dialect
from shim.prompting.system import ToolChoice, ToolInput, render_system_prompt
from shim.types import ContentBlock, Message, Role, ToolCall, ToolResult

__all__ = ["assistant_message", "content_text", "render_messages", "tool_message"]


def render_messages(
    messages: Iterable[Mapping[str, Any]],
    tools: Iterable[ToolInput] = (),
    *,
    dialect: str | Path | PromptDialect = DEFAULT_DIALECT,
    compact: bool | None = None,
    tool_choice: ToolChoice = "auto",
) -> list[Message]:
    """Render a conversation and its tools into plain messages.

    Args:
        messages: OpenAI chat messages (``system``, ``developer``, ``user``, ``assistant`` with
            ``tool_calls``, ``tool`` with ``tool_call_id``; legacy ``function``); ``content`` may be a
            string, None or a list of parts. A tool message may carry ``is_error``/``isError``, or hold a
            `ToolResult` or a whole MCP ``CallToolResult`` (``{"content": [...], "isError": ...}``) as
            its content.
        tools: The tools, in any form `render_system_prompt` takes.
        dialect: Dialect name, `PromptDialect` or template path, as in `render_system_prompt`.
        compact: As in `render_system_prompt`.
        tool_choice: As in `render_system_prompt`.

    Returns:
        The system message (when there is anything to say) followed by alternating user/assistant turns.

    Raises:
        ValueError: a message has an unknown role, or the tool arguments are invalid as described in
            `render_system_prompt`.
    """
    spec = get_dialect(dialect)
    items = list(messages)
    system_parts: list[str] = []
    start = 0
    while start < len(items) and items[start].get("role") in ("system", "developer"):
        system_parts.append(content_text(items[start].get("content")))
        start += 1
    prompt = render_system_prompt(
        tools,
        dialect=spec,
        compact=compact,
        tool_choice=tool_choice,
        system="\n\n".join(p for p in system_parts if p),
    )
    turns: list[tuple[Role, str]] = [("system", prompt.strip())]
    calls: dict[str, tuple[int, str]] = {}  # call id -> (position in its assistant turn, tool name)
    results: list[tuple[int, str]] = []  # (sort key, rendered result) of the current run of tool messages
    for n, message in enumerate(items[start:], start):
        role = message.get("role")
        if role in ("tool", "function"):
            results.append(_result(spec, message, calls, len(results)))
            continue
        if results:
            turns.append(("user", _join(text for _, text in sorted(results, key=lambda r: r[0]))))
            results = []
        if role == "assistant":
            text, calls = _assistant(spec, message)
            turns.append(("assistant", text))
        elif role == "user":
            turns.append(("user", content_text(message.get("content"))))
        elif role in ("system", "developer"):
            turns.append(("user", f"System: {content_text(message.get('content'))}"))
        else:
            raise ValueError(
                f"message #{n} has role {role!r}; expected system, developer, user, assistant, tool or function"
            )
    if results:
        turns.append(("user", _join(text for _, text in sorted(results, key=lambda r: r[0]))))
    return _merge(turns)


def assistant_message(text: str, calls: Sequence[ToolCall] = ()) -> dict[str, Any]:
    """The OpenAI-style assistant message for a model turn, to append to the conversation.

    The agent loop records each turn this way, so the next `render_messages` writes the calls back as
    blocks and matches their results by id.
    """
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments, ensure_ascii=False)},
            }
            for call in calls
        ]
    return message


def tool_message(result: ToolResult, *, max_chars: int | None = 20_000) -> dict[str, Any]:
    """The OpenAI-style ``tool`` message for one result (plain JSON, so it can be logged or sent on).

    Args:
        result: What the router returned for one call.
        max_chars: Passed to `ToolResult.render`: longer output is cut there, saying how much was left.
    """
    return {
        "role": "tool",
        "tool_call_id": result.call_id,
        "name": result.name,
        "content": result.render(max_chars=max_chars),
        "is_error": result.is_error,
    }


def _assistant(spec: PromptDialect, message: Mapping[str, Any]) -> tuple[str, dict[str, tuple[int, str]]]:
    blocks: list[str] = []
    calls: dict[str, tuple[int, str]] = {}
    raw_calls: list[Any] = list(message.get("tool_calls") or [])
    if is_obj(message.get("function_call")):  # the pre-tool_calls OpenAI form
        raw_calls.append({"function": message["function_call"]})
    for position, call in enumerate(raw_calls):
        function = call.get("function") if is_obj(call) else None
        if not is_obj(function) or not isinstance(function.get("name"), str):
            raise ValueError(f"assistant tool call #{position} has no function name: {call!r}")
        name: str = function["name"]
        blocks.append(spec.render_call(name, _arguments(function.get("arguments"))))
        call_id = call.get("id") if is_obj(call) else None
        calls[str(call_id) if call_id is not None else name] = (position, name)
    return _join([content_text(message.get("content")), *blocks], sep="\n"), calls


def _arguments(raw: Any) -> Mapping[str, Any] | str:
    """The call's arguments as an object; unparsable JSON text stays verbatim (the model wrote it so)."""
    if is_obj(raw):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    text = str(raw)
    try:
        value: Any = json.loads(text)
    except ValueError:
        return text.strip()
    return value if is_obj(value) else text.strip()


def _result(
    spec: PromptDialect, message: Mapping[str, Any], calls: Mapping[str, tuple[int, str]], arrival: int
) -> tuple[int, str]:
    call_id = message.get("tool_call_id")
    content = message.get("content")
    error = bool(message.get("is_error") or message.get("isError"))
    if isinstance(content, ToolResult):  # shim's own result, as the router returns it
        error = error or content.is_error
        call_id = call_id if call_id is not None else content.call_id
        message = {"name": content.name, **message}
        content = content.render()
    elif is_obj(content) and "content" in content:  # a whole MCP CallToolResult
        error = error or bool(content.get("isError"))
        structured = content.get("structuredContent")
        content = content["content"] or (json.dumps(structured, ensure_ascii=False) if structured else "")
    known = calls.get(str(call_id)) if call_id is not None else calls.get(str(message.get("name")))
    name = message.get("name") or (known[1] if known else None)
    # Results sort by the position of the call they answer; unmatched ones keep their arrival order, last.
    key = known[0] if known else 10_000 + arrival
    text = spec.render_result(
        content_text(content), id=str(call_id) if call_id is not None else None, name=name, error=error
    )
    return key, text


def content_text(content: Any) -> str:
    """Flatten message content (a string, None, or a list of OpenAI / MCP content parts) to text.

    Non-text parts become short placeholders, so the model knows something was there without the bytes.
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if is_obj(content) or isinstance(content, ContentBlock):
        content = [content]
    if isinstance(content, tuple):
        content = list(cast("tuple[Any, ...]", content))
    if not is_arr(content):
        return str(content)
    return _join((_part_text(part) for part in content), sep="\n")


def _part_text(part: Any) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, ContentBlock):
        return part.render()
    if not is_obj(part):
        return str(part)
    kind = part.get("type")
    if kind in ("text", "input_text", "output_text"):
        return str(part.get("text") or "")
    if kind == "refusal":
        return str(part.get("refusal") or "")
    if kind == "image_url":
        image = part.get("image_url")
        url = str(image.get("url") if is_obj(image) else image or "")
        return _data_url_placeholder("image", url) if url.startswith("data:") else f"[image: {url}]"
    if kind in ("image", "audio"):  # MCP ImageContent / AudioContent
        return f"[{kind}: {part.get('mimeType') or 'unknown type'}, {_size(part.get('data'))}]"
    if kind == "input_audio":
        found = part.get("input_audio")
        audio: Mapping[str, Any] = found if is_obj(found) else {}
        return f"[audio: {audio.get('format') or 'unknown format'}, {_size(audio.get('data'))}]"
    if kind == "resource":  # MCP EmbeddedResource: text resources carry text the model needs
        found = part.get("resource")
        resource: Mapping[str, Any] = found if is_obj(found) else {}
        uri = resource.get("uri") or "unknown"
        if isinstance(resource.get("text"), str):
            return f"[resource: {uri}]\n{resource['text']}"
        return f"[resource: {uri}, {resource.get('mimeType') or 'binary'}, {_size(resource.get('blob'))}]"
    if kind == "resource_link":
        label = part.get("name") or part.get("uri")
        return f"[resource link: {label} <{part.get('uri')}>]"
    if kind == "file":
        file = part.get("file")
        name = file.get("filename") if is_obj(file) else None
        return f"[file: {name or 'attachment'}]"
    return f"[{kind or 'unknown'} content]"


def _data_url_placeholder(kind: str, url: str) -> str:
    header, _, data = url.partition(",")
    mime = header[5:].split(";")[0] or "unknown type"
    return f"[{kind}: {mime}, {_size(data)}]"


def _size(data: Any) -> str:
    if not isinstance(data, str) or not data:
        return "size unknown"
    size = len(data) * 3 // 4  # base64 -> bytes
    return f"{size} bytes" if size < 1024 else f"{size // 1024} KB"


def _join(parts: Iterable[str], sep: str = "\n\n") -> str:
    return sep.join(p for p in parts if p.strip())


def _merge(turns: list[tuple[Role, str]]) -> list[Message]:
    merged: list[tuple[Role, str]] = []
    for role, text in turns:
        if not text.strip():
            continue
        if merged and merged[-1][0] == role:
            merged[-1] = (role, f"{merged[-1][1]}\n\n{text}")
        else:
            merged.append((role, text))
    return [Message(role=role, content=text) for role, text in merged]
