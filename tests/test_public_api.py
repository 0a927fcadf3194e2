"""The package's public surface is deliberate: ``shim.__all__`` is exactly this list."""

from __future__ import annotations

import shim


def test_all_is_exactly_the_curated_public_surface() -> None:
    assert sorted(shim.__all__) == sorted([
        # prompt
        "render_system_prompt", "render_messages", "Message",
        # backend
        "get_backend",
        # parser and its events
        "StreamParser", "parse_text", "IdGenerator", "Dialect", "register_dialect", "Event", "ParseResult",
        "TextDelta", "ReasoningDelta", "ToolCallStart", "ToolCallChunk", "ToolCallEnd", "ParseIssue",
        # tools and the loop
        "ToolSpec", "ToolCall", "ToolResult", "Agent", "AgentResult",
        # errors, version
        "ShimError", "__version__",
    ])  # fmt: skip


def test_every_public_name_exists() -> None:
    for name in shim.__all__:
        assert hasattr(shim, name), name
