"""How models mark tool calls and reasoning, as data: a registry the user can extend.

Each `Dialect` is an opening pattern, an optional closing pattern, and what its body holds. Patterns are
`regex` expressions matched case-insensitively; the parser matches them with ``partial=True`` so a marker
split across chunks (``<tool_`` + ``call>``) is held back, never leaked as text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import regex

__all__ = ["DEFAULT_DIALECTS", "Dialect", "register_dialect"]

_WS = r"[ \t]{0,8}"


@dataclass(frozen=True)
class Dialect:
    """One way of marking a block in model output."""

    name: str
    open: str
    """Pattern of the opening marker. A named group ``name`` means the marker itself names the tool."""
    close: str | None
    """Pattern of the closing marker; None when the block simply ends with its body."""
    kind: Literal["call", "reasoning"] = "call"
    body: Literal["json", "xml", "json_or_xml", "mistral"] = "json_or_xml"
    """``json``: an object or array of calls; ``xml``: ``<parameter=K>V</parameter>`` (the opener names the
    tool); ``json_or_xml``: either, JSON or a nested ``<function=NAME>``; ``mistral``: JSON or ``NAME[ARGS]{…}``."""

    def compiled_open(self) -> regex.Pattern[str]:
        return regex.compile(self.open, regex.IGNORECASE)

    def compiled_close(self) -> regex.Pattern[str] | None:
        return regex.compile(self.close, regex.IGNORECASE) if self.close else None


def _tag(name: str) -> tuple[str, str]:
    return f"<{_WS}{name}{_WS}>", f"<{_WS}/{_WS}{name}{_WS}>"


DEFAULT_DIALECTS: list[Dialect] = [
    # The format shim's own prompt asks for.
    Dialect("function_call", *_tag("function_call")),
    # Hermes / Qwen 2.5 / Qwen3.
    Dialect("tool_call", *_tag("tool_call")),
    Dialect("functioncall", *_tag("functioncall")),
    Dialect("tool", *_tag("tool")),
    # Qwen3-Coder: <function=NAME><parameter=K>V</parameter></function>, bare or inside <tool_call>.
    Dialect("qwen_xml", r"<function=(?P<name>[^>\n]{1,128})>", rf"<{_WS}/{_WS}function{_WS}>", body="xml"),
    # LM Studio's prompt-based tool use.
    Dialect("tool_request", r"\[TOOL_REQUEST\]", r"\[END_TOOL_REQUEST\]", body="json"),
    # Mistral: [TOOL_CALLS][{…}] or, with newer tokenizers, [TOOL_CALLS]name[ARGS]{…}. No closing marker.
    Dialect("mistral", r"\[TOOL_CALLS\]", None, body="mistral"),
    # Llama 3.1 built-in tool syntax: <|python_tag|>{…} until the end-of-message token.
    Dialect("python_tag", r"<\|python_tag\|>", r"<\|eom_id\|>|<\|eot_id\|>", body="json"),
    # Reasoning blocks: everything inside is reasoning, calls there are drafts.
    Dialect("think", *_tag("think"), kind="reasoning"),
    Dialect("thinking", *_tag("thinking"), kind="reasoning"),
    Dialect("reasoning", *_tag("reasoning"), kind="reasoning"),
]
"""Every dialect a `StreamParser` recognises unless given its own list."""


def register_dialect(dialect: Dialect) -> None:
    """Add a dialect to the defaults of every parser created afterwards (replacing one of the same name).

    Raises:
        ValueError: a pattern does not compile.
    """
    try:
        dialect.compiled_open()
        dialect.compiled_close()
    except regex.error as exc:
        raise ValueError(f"dialect {dialect.name!r} has an invalid pattern: {exc}") from None
    DEFAULT_DIALECTS[:] = [d for d in DEFAULT_DIALECTS if d.name != dialect.name] + [dialect]
