"""The public surface of ``shim.prompting`` is exactly what its ``__all__`` promises."""

from __future__ import annotations

import shim
import shim.prompting


def test_the_prompting_api_is_exactly_this() -> None:
    assert sorted(shim.prompting.__all__) == [
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
    for name in shim.prompting.__all__:
        assert hasattr(shim.prompting, name), name


def test_the_two_renderers_are_exported_at_the_top_level() -> None:
    assert shim.render_system_prompt is shim.prompting.render_system_prompt
    assert shim.render_messages is shim.prompting.render_messages
    assert {"render_messages", "render_system_prompt"} <= set(shim.__all__)
