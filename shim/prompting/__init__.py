"""Prompts: tool definitions into the system prompt, calls and results back into the conversation.

- `render_system_prompt` teaches a model without native tool calling how to call the given tools.
- `render_messages` turns an OpenAI-style conversation into plain messages such a model can take;
  `assistant_message` and `tool_message` record a turn's calls and results in that conversation.
- `PromptDialect` / `get_dialect` say how one call block and one result are written (``DIALECTS`` lists the
  built-in ones; a user's template file works in place of a dialect name).
"""

from shim.prompting.conversation import assistant_message, content_text, render_messages, tool_message
from shim.prompting.dialects import DEFAULT_DIALECT, DIALECTS, PromptDialect, get_dialect
from shim.prompting.system import COMPACT_THRESHOLD, ToolChoice, normalize_tool_choice, render_system_prompt

__all__ = [
    "COMPACT_THRESHOLD",
    "DEFAULT_DIALECT",
    "DIALECTS",
    "PromptDialect",
    "ToolChoice",
    "assistant_message",
    "content_text",
    "get_dialect",
    "normalize_tool_choice",
    "render_messages",
    "render_system_prompt",
    "tool_message",
]
