"""A Markdown code fence of a programming language: code shown in prose, never a call.

Inside ```` ```python ```` … ```` ``` ```` a line ``get_weather(city='Lima')`` is an example, not a call, and
so is a JSON object, a pythonic list or a tagged call: nothing in it is read. The row is of kind ``prose``
(one of the core's rules for prose, `shim.parsing.readers.prose`): it applies whether tools are offered or
not. Fences whose language says
"call" (``json``, ``tool_code``, ``tool_call``, ``function_call``) and markup fences that may quote a tagged
call (``xml``, ``html``) are not this row's; a fence with no language is not either (LangChain's blob).
"""

from __future__ import annotations

import regex

from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next

__all__ = ["ROWS", "CodeFence"]

_NOT_CODE = r"(?:json5?|jsonc|tool_calls?|function_calls?|tool_code|tool|xml|html|text|plaintext|markdown|md)\b"
OPEN = rf"```(?!{_NOT_CODE})[A-Za-z][\w+#.\-]{{0,20}}[ \t]*\r?\n"


class CodeFence:
    """Passes the fence's content through as text up to the closing fence, streaming it as it comes."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        found = text.find("```", pos)
        if found >= 0:
            self.ctx.consume(text[pos : found + 3])
            self.ctx.revert()
            return found + 3, None
        # The last two characters may begin the closing fence: keep them for the next chunk.
        end = len(text) if final else max(pos, len(text) - 2)
        if end > pos:
            self.ctx.consume(text[pos:end])
            self.ctx.revert()
        return end, (self if final else MORE)

    def finish(self, truncated: bool) -> None:
        del truncated
        self.ctx.revert()


def open_code_fence(ctx: Context, block: Block, match: regex.Match[str]) -> CodeFence:
    del block, match
    return CodeFence(ctx)


ROWS = [Dialect("code_fence", OPEN, None, kind="prose", first="`", reader=open_code_fence)]
