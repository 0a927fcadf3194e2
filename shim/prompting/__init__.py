"""Prompts: tool definitions into the system prompt, calls and results back into the conversation.

- `render_system_prompt` teaches a model without native tool calling how to call the given tools.
- `render_messages` turns a conversation (typed `ChatMessage` s, or OpenAI-style dicts read by
  `chat_messages`) into plain messages such a model can take, images included; `user_message`,
  `assistant_message` and `tool_message` record a turn's text, calls and results in that conversation.
- `PromptDialect` / `get_dialect` say how one call block and one result are written (``DIALECTS`` lists the
  built-in ones; a user's template file works in place of a dialect name).
"""

from shim.prompting.conversation import assistant_message, render_messages, tool_message, user_message
from shim.prompting.dialects import DEFAULT_DIALECT, DIALECTS, PromptDialect, get_dialect
from shim.prompting.messages import chat_messages, content_text
from shim.prompting.system import (
    COMPACT_THRESHOLD,
    NormalizedChoice,
    ToolChoice,
    normalize_tool_choice,
    render_system_prompt,
)

__all__ = [
    "COMPACT_THRESHOLD",
    "DEFAULT_DIALECT",
    "DIALECTS",
    "NormalizedChoice",
    "PromptDialect",
    "ToolChoice",
    "assistant_message",
    "chat_messages",
    "content_text",
    "get_dialect",
    "normalize_tool_choice",
    "render_messages",
    "render_system_prompt",
    "tool_message",
    "user_message",
]
