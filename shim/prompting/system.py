"""The system prompt: the caller's own system text, then the tools and how to call them.

The wording lives in ``prompts/<dialect>.j2`` (Jinja2, no autoescaping, strict undefined); this module
prepares what the templates see: one `ToolView` per tool, the tool choice, and a worked example that
calls a real tool from the list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeAlias

import jinja2

from shim.choice import NormalizedChoice, ToolChoice, normalize_tool_choice
from shim.prompting.dialects import DEFAULT_DIALECT, PromptDialect, get_dialect
from shim.prompting.example import pick_example_tool
from shim.prompting.schema import SchemaText
from shim.resources import data_dir
from shim.types import ToolSpec, tool_specs

__all__ = [
    "COMPACT_THRESHOLD",
    "NormalizedChoice",
    "ToolChoice",
    "ToolView",
    "normalize_tool_choice",
    "render_system_prompt",
]

ToolInput: TypeAlias = "ToolSpec | Mapping[str, Any] | str"

COMPACT_THRESHOLD = 20
"""With ``compact=None``, more tools than this are listed as one-line signatures."""
_SUMMARY_LIMIT = 160


@dataclass(frozen=True, kw_only=True)
class ToolView:
    """One tool as the templates see it; every text is ready to print."""

    name: str
    title: str | None
    """Shown only when it says more than the name."""
    description: str
    summary: str
    """The description's first sentence, for compact mode."""
    hint_tags: list[str]
    """``read-only`` / ``destructive`` (compact mode)."""
    hint_notes: list[str]
    """The same hints as sentences (full mode)."""
    parameters: list[str]
    """Bullet lines; empty when the tool takes no parameters."""
    definitions: list[str]
    """Bullet lines defining recursive types the parameters refer to by name."""
    signature: str
    signature_definitions: list[str]

    @classmethod
    def of(cls, tool: ToolSpec) -> ToolView:
        text = SchemaText(tool.input_schema)
        parameters, signature = text.parameter_lines(), text.signature(tool.name)
        tags, notes = _hints(tool.annotations)
        description = tool.description.strip()
        title = tool.title if tool.title and tool.title.strip().lower() != tool.name.lower() else None
        return cls(
            name=tool.name,
            title=title,
            description=description,
            summary=_summary(description),
            hint_tags=tags,
            hint_notes=notes,
            parameters=parameters,
            definitions=text.definition_lines(),
            signature=signature,
            signature_definitions=text.definitions_compact(),
        )


def render_system_prompt(
    tools: Iterable[ToolInput],
    *,
    dialect: str | Path | PromptDialect = DEFAULT_DIALECT,
    compact: bool | None = None,
    tool_choice: ToolChoice | NormalizedChoice = "auto",
    system: str | None = None,
) -> str:
    """Render the system prompt that teaches a model without native tool calling to use ``tools``.

    Args:
        tools: MCP ``tools/list`` entries, OpenAI ``{"type": "function", ...}`` tools or `ToolSpec` s.
        dialect: A dialect name (``function_call``, ``tool_call``), a `PromptDialect`, or the path of your own
            Jinja2 template (which keeps the ``function_call`` syntax).
        compact: One-line signatures instead of full parameter lists; ``None`` picks compact for more
            than `COMPACT_THRESHOLD` tools.
        tool_choice: ``"auto"``, ``"none"`` (no tools in the prompt), ``"required"``, or one tool (its
            name, or ``{"type": "function", "function": {"name": ...}}``), which is then the only tool
            listed; or a `NormalizedChoice` the caller already reduced against these tools.
        system: The caller's own system message; it comes first and is kept word for word.

    Returns:
        The prompt. With no tools to show it is ``system`` unchanged (``""`` when that is None too).

    Raises:
        ValueError: an unknown dialect or tool choice, a tool without a name, a tool choice naming a tool
            that is not in ``tools``, or ``"required"`` with no tools.
    """
    specs = _specs(tools)
    if isinstance(tool_choice, NormalizedChoice):
        choice, forced = tool_choice.mode, tool_choice.named
    else:
        choice, forced = normalize_tool_choice(tool_choice, [t.name for t in specs])
    if forced is not None:
        specs = [t for t in specs if t.name == forced]
    if choice == "required" and not specs:
        raise ValueError("tool_choice 'required' needs at least one tool, and no tools were given")
    if choice == "none" or not specs:
        return system or ""
    spec_dialect = get_dialect(dialect)
    example_tool, example_args = pick_example_tool(specs)
    context: dict[str, Any] = {
        "system": (system or "").strip(),
        "tools": [ToolView.of(t) for t in specs],
        "compact": len(specs) > COMPACT_THRESHOLD if compact is None else compact,
        "choice": choice,
        "forced": forced,
        "example": spec_dialect.render_call(example_tool.name, example_args),
        "example_tool": example_tool.name,
        "result_tag": spec_dialect.result_tag,
        "dialect": spec_dialect,
    }
    template = _template(spec_dialect.template)
    try:
        return _tidy(template.render(context))
    except jinja2.TemplateError as exc:
        raise ValueError(f"prompt template {str(spec_dialect.template)!r} failed to render: {exc}") from exc


def _specs(tools: Iterable[ToolInput]) -> list[ToolSpec]:
    return tool_specs(tools)


def _hints(annotations: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    if annotations.get("readOnlyHint") is True:
        return ["read-only"], ["Read-only: it does not change anything."]
    if annotations.get("destructiveHint") is True:
        return ["destructive"], [
            "Destructive: it may delete or overwrite data; call it only when the user asked for that."
        ]
    return [], []


def _summary(description: str) -> str:
    first = description.split("\n\n", 1)[0].replace("\n", " ")
    match = re.match(r"(.+?[.!?])(\s|$)", first)
    sentence = match.group(1) if match else first
    return sentence if len(sentence) <= _SUMMARY_LIMIT else sentence[: _SUMMARY_LIMIT - 1].rstrip() + "…"


def _tidy(text: str) -> str:
    lines = [line.rstrip() for line in text.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)) + "\n"


@lru_cache(maxsize=16)
def _environment(folder: Path) -> jinja2.Environment:
    # A user's template may include or extend the built-in ones, so its folder comes first, then prompts/.
    loader = jinja2.FileSystemLoader([str(folder), str(data_dir("prompts"))])
    return jinja2.Environment(
        loader=loader,
        autoescape=False,  # a prompt, not HTML: `<` and quotes must reach the model as written
        undefined=jinja2.StrictUndefined,  # a misspelt variable is a bug, not a silent blank
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )


def _template(template: str | Path) -> jinja2.Template:
    path = Path(template)
    if path.is_absolute() or path.parent != Path("."):
        if not path.is_file():
            raise ValueError(f"prompt template file {str(template)!r} does not exist")
        folder, name = path.parent.resolve(), path.name
    else:
        folder, name = data_dir("prompts"), str(template)
    try:
        return _environment(folder).get_template(name)
    except jinja2.TemplateSyntaxError as exc:
        raise ValueError(
            f"prompt template {str(template)!r} has a syntax error on line {exc.lineno}: {exc.message}"
        ) from exc
