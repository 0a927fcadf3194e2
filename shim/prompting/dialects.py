"""Dialects: how the model is told to write a call, and how calls and results are written back to it.

A dialect pairs a prompt template (``prompts/<name>.j2``) with the text shape of one call block and the tag
that wraps tool results. The result tag is always different from the call tag, so a model that echoes a
result can never have the echo parsed as a new call.

Adding a dialect: write ``prompts/<name>.j2`` and add a `PromptDialect` to ``DIALECTS``. A user's own template
works without either: pass its path where a dialect name is expected (it keeps the default call syntax),
or ``PromptDialect(...).with_template(path)`` to pair it with another syntax.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_DIALECT", "DIALECTS", "PromptDialect", "get_dialect"]


@dataclass(frozen=True, kw_only=True)
class PromptDialect:
    """One way of writing tool calls as text."""

    name: str
    """Short name used on the command line (``--dialect``)."""
    template: str | Path
    """A template name inside ``prompts/`` or a path to the user's own Jinja2 file."""
    call_open: str
    """Text that opens a call block, up to the JSON body."""
    call_close: str
    """Text that closes a call block, right after the JSON body."""
    result_tag: str
    """Tag name that wraps a tool result in the conversation (never the call tag)."""

    def render_call(self, name: str, arguments: Mapping[str, Any] | str) -> str:
        """Write one call block exactly as the prompt tells the model to write it.

        Args:
            name: The tool's name.
            arguments: The arguments object; a string is taken as already-written JSON text (an
                earlier model turn whose arguments did not parse is re-rendered verbatim).
        """
        if isinstance(arguments, str):
            body = f'{{"name": {json.dumps(name, ensure_ascii=False)}, "arguments": {arguments}}}'
        else:
            body = json.dumps({"name": name, "arguments": dict(arguments)}, ensure_ascii=False)
        return f"{self.call_open}{body}{self.call_close}"

    def render_result(self, content: str, *, id: str | None, name: str | None, error: bool = False) -> str:
        """Wrap one tool result in the result tag.

        A literal closing result tag inside ``content`` is defused (``<\\/tag>``) so tool output cannot
        end the block early and pass its remainder off as the conversation's own text.
        """
        attrs = "".join(f' {key}="{_attr(value)}"' for key, value in (("id", id), ("name", name)) if value is not None)
        if error:
            attrs += ' error="true"'
        closing = f"</{self.result_tag}>"
        safe = content.replace(closing, f"<\\/{self.result_tag}>")
        return f"<{self.result_tag}{attrs}>\n{safe}\n{closing}"

    def with_template(self, template: str | Path) -> PromptDialect:
        """The same call syntax with another prompt template (a user's own file)."""
        return replace(self, template=template)


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;")


DIALECTS: dict[str, PromptDialect] = {
    "function_call": PromptDialect(
        name="function_call",
        template="function_call.j2",
        call_open="<function_call>",
        call_close="</function_call>",
        result_tag="function_result",
    ),
    # shim's own syntax in a short prompt for small models (tools first, an example of a tool not offered).
    "function_call_small": PromptDialect(
        name="function_call_small",
        template="function_call_small.j2",
        call_open="<function_call>",
        call_close="</function_call>",
        result_tag="function_result",
    ),
    # Hermes / Qwen 2.5: the body sits on its own line and results come back in <tool_response>, as in
    # those models' own chat templates, so the prompt matches what they were trained on.
    "tool_call": PromptDialect(
        name="tool_call",
        template="tool_call.j2",
        call_open="<tool_call>\n",
        call_close="\n</tool_call>",
        result_tag="tool_response",
    ),
    # Mistral / Mistral Small / Devstral: the [TOOL_CALLS] list those models were trained to write.
    "mistral": PromptDialect(
        name="mistral",
        template="mistral.j2",
        call_open="[TOOL_CALLS][",
        call_close="]",
        result_tag="tool_result",
    ),
}
"""The built-in dialects by name."""

DEFAULT_DIALECT = "function_call"


def get_dialect(dialect: str | Path | PromptDialect = DEFAULT_DIALECT) -> PromptDialect:
    """Look up a dialect by name, or wrap the path of a user's template file.

    A path (anything naming an existing file, or ending in ``.j2``/``.jinja``/``.txt``) keeps the default
    ``function_call`` syntax; use `PromptDialect.with_template` to pair a file with another syntax.

    Raises:
        ValueError: the name is not a known dialect and no such template file exists.
    """
    if isinstance(dialect, PromptDialect):
        return dialect
    key = str(dialect)
    if key in DIALECTS:
        return DIALECTS[key]
    path = Path(key).expanduser()
    if path.is_file():
        return DIALECTS[DEFAULT_DIALECT].with_template(path.resolve())
    if path.suffix in {".j2", ".jinja", ".txt"}:
        raise ValueError(f"prompt template file {key!r} does not exist")
    raise ValueError(
        f"unknown dialect {key!r}; known dialects: {', '.join(sorted(DIALECTS))} "
        f"(or pass the path of your own Jinja2 template file)"
    )
