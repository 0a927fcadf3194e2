"""The package's public surface is deliberate: ``shim.__all__`` is exactly this list."""

from __future__ import annotations

import shim


def test_all_is_exact_and_every_name_exists() -> None:
    assert len(shim.__all__) == len(set(shim.__all__))
    for name in shim.__all__:
        assert hasattr(shim, name), name
    assert set(shim.__all__) >= {
        "StreamParser",
        "parse_text",
        "IdGenerator",
        "Dialect",
        "register_dialect",
        "ParseResult",
        "TextDelta",
        "ReasoningDelta",
        "ToolCallStart",
        "ToolCallChunk",
        "ToolCallEnd",
        "ParseIssue",
        "ToolSpec",
        "ToolCall",
        "Message",
        "ShimError",
        "__version__",
    }
