"""The conversation (typed `ChatMessage` s, or OpenAI-style dicts) -> plain system/user/assistant messages for
a model without native tools.

- Leading ``system``/``developer`` messages merge into one system message, followed by the tool prompt.
  A system message later in the conversation becomes a user-side ``System: ...`` note, because many chat
  templates reject a system message anywhere but first.
- An assistant's ``tool_calls`` are re-rendered as call blocks after its text, exactly as the dialect
  tells the model to write them, so the model sees its own earlier calls in the form it should repeat.
- ``tool`` results go into one user message per run of results, in the order of the calls they answer,
  each wrapped in the dialect's result tag (never the call tag) and marked ``error="true"`` on failure.
- Images (from the user, or from a tool) go with the rendered message in `Message.images`, and the text names
  each where it stood (``[image: image/png, 12 KB, from tool 'screenshot']``): an engine that can see gets
  both, a text-only one reads the placeholder. Audio and binary parts become such placeholders only.
- Consecutive messages of the same role are merged, since several chat templates insist on alternation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from shim.prompting.dialects import DEFAULT_DIALECT, PromptDialect, get_dialect
from shim.prompting.messages import chat_messages, result_blocks
from shim.prompting.system import NormalizedChoice, ToolChoice, ToolInput, render_system_prompt
from shim.types import ChatMessage, ContentBlock, Image, Message, Role, ToolCall, ToolResult

__all__ = ["assistant_message", "render_messages", "tool_message", "user_message"]

_Turn = tuple[Role, str, tuple[Image, ...]]


def render_messages(
    messages: Iterable[ChatMessage | Mapping[str, Any]],
    tools: Iterable[ToolInput] = (),
    *,
    dialect: str | Path | PromptDialect = DEFAULT_DIALECT,
    compact: bool | None = None,
    tool_choice: ToolChoice | NormalizedChoice = "auto",
) -> list[Message]:
    """Render a conversation and its tools into plain messages.

    Args:
        messages: The conversation: `ChatMessage` s, or OpenAI chat messages as dicts (read by
            `shim.prompting.messages.chat_messages`: ``system``, ``developer``, ``user``, ``assistant`` with
            ``tool_calls``, ``tool`` with ``tool_call_id``; legacy ``function``; ``content`` a string, None
            or a list of parts; a tool message's content may be a `ToolResult` or a whole MCP
            ``CallToolResult``).
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
    items = chat_messages(messages)
    system_parts: list[str] = []
    start = 0
    while start < len(items) and items[start].role in ("system", "developer"):
        system_parts.append(items[start].text())
        start += 1
    prompt = render_system_prompt(
        tools,
        dialect=spec,
        compact=compact,
        tool_choice=tool_choice,
        system="\n\n".join(p for p in system_parts if p),
    )
    turns: list[_Turn] = [("system", prompt.strip(), ())]
    calls: dict[str, tuple[int, str]] = {}  # call id (or name, without one) -> (position in its turn, tool name)
    results: list[tuple[int, str, tuple[Image, ...]]] = []  # (sort key, text, images) of the current run of results
    for message in items[start:]:
        if message.role == "tool":
            results.append(_result(spec, message, calls, len(results)))
            continue
        if results:
            turns.append(_results_turn(results))
            results = []
        if message.role == "assistant":
            calls = {call.id or call.name: (position, call.name) for position, call in enumerate(message.tool_calls)}
            blocks = [spec.render_call(c.name, c.unparsed or c.arguments) for c in message.tool_calls]
            turns.append(("assistant", _join([message.text(), *blocks], sep="\n"), message.images))
        elif message.role == "user":
            turns.append(("user", message.text(), message.images))
        else:
            turns.append(("user", f"System: {message.text()}", message.images))
    if results:
        turns.append(_results_turn(results))
    return _merge(turns)


def user_message(text: str) -> ChatMessage:
    """A user message of plain text (what the agent adds for a prompt string, or a reminder to the model)."""
    return ChatMessage(role="user", content=(ContentBlock(kind="text", text=text),))


def assistant_message(text: str, calls: Sequence[ToolCall] = ()) -> ChatMessage:
    """The assistant message for a model turn, to append to the conversation.

    The agent loop records each turn this way, so the next `render_messages` writes the calls back as
    blocks (their arguments as the objects they are) and matches their results by id.
    """
    content = (ContentBlock(kind="text", text=text),) if text else ()
    return ChatMessage(role="assistant", content=content, tool_calls=tuple(calls))


def tool_message(result: ToolResult, *, max_chars: int | None = 20_000) -> ChatMessage:
    """The ``tool`` message for one result, its images kept (`ChatMessage.to_dict` gives the plain JSON).

    Args:
        result: What the router returned for one call.
        max_chars: Longer text is cut there, saying how much was left (as `ToolResult.render` does).
    """
    return ChatMessage(
        role="tool",
        content=result_blocks(result, max_chars=max_chars),
        tool_call_id=result.call_id,
        name=result.name,
        is_error=result.is_error,
    )


def _result(
    spec: PromptDialect, message: ChatMessage, calls: Mapping[str, tuple[int, str]], arrival: int
) -> tuple[int, str, tuple[Image, ...]]:
    call_id = message.tool_call_id
    known = calls.get(call_id) if call_id is not None else calls.get(str(message.name))
    name = message.name or (known[1] if known else None)
    # Results sort by the position of the call they answer; unmatched ones keep their arrival order, last.
    key = known[0] if known else 10_000 + arrival
    origin = f"tool {name!r}" if name else "a tool"
    text = spec.render_result(message.text(origin=origin), id=call_id, name=name, error=message.is_error)
    return key, text, message.images


def _results_turn(results: list[tuple[int, str, tuple[Image, ...]]]) -> _Turn:
    ordered = sorted(results, key=lambda r: r[0])
    return ("user", _join(text for _, text, _ in ordered), tuple(i for *_, images in ordered for i in images))


def _join(parts: Iterable[str], sep: str = "\n\n") -> str:
    return sep.join(p for p in parts if p.strip())


def _merge(turns: list[_Turn]) -> list[Message]:
    # Runs of one role are gathered and joined once: joining as they come copies the text so far each time,
    # which made 10,000 user messages of 1 KB take 5 s.
    merged: list[tuple[Role, list[str], list[Image]]] = []
    for role, text, images in turns:
        if not text.strip():
            continue
        if merged and merged[-1][0] == role:
            merged[-1][1].append(text)
            merged[-1][2].extend(images)
        else:
            merged.append((role, [text], list(images)))
    return [Message(role=role, content="\n\n".join(texts), images=tuple(images)) for role, texts, images in merged]
