"""A tool choice in any of its forms (``"auto"``, ``"none"``, ``"required"``, Anthropic's ``"any"``, a tool's name,
an OpenAI or Anthropic tool-choice object) reduced to one: a mode and, for a named choice, the tool.

A pure function of data, on the lowest floor so that both the prompt (`shim.prompting`) and the loop's one owner
of the decision (`shim.tool_choice.TurnChoice`, which reduces it once per turn and hands the result down as a
`NormalizedChoice`) can use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, cast

__all__ = ["NormalizedChoice", "ToolChoice", "normalize_tool_choice"]

ToolChoice: TypeAlias = "str | Mapping[str, Any] | None"
"""``"auto"``, ``"none"``, ``"required"``, a tool's name, or an OpenAI/Anthropic tool-choice object."""
_MODES: dict[str, Literal["auto", "none", "required"]] = {
    "auto": "auto",
    "none": "none",
    "required": "required",
    "any": "required",  # Anthropic's word for "required"
}


@dataclass(frozen=True)
class NormalizedChoice:
    """A tool choice already reduced by `normalize_tool_choice` against the tools of the turn (the loop's
    `shim.tool_choice.TurnChoice` decides it once and hands it to the prompt and to the call constraint)."""

    mode: Literal["auto", "none", "required", "named"]
    named: str | None = None
    """The one tool a ``named`` choice asks for."""


def normalize_tool_choice(
    tool_choice: ToolChoice, names: Sequence[str]
) -> tuple[Literal["auto", "none", "required", "named"], str | None]:
    """Reduce any tool-choice form to ``(mode, tool name or None)``.

    Raises:
        ValueError: the form is not recognised, or it names a tool not in ``names``.
    """
    choice: Any = tool_choice
    if choice is None:
        return "auto", None
    if isinstance(choice, Mapping):
        fields = cast("Mapping[str, Any]", choice)
        kind = fields.get("type")
        function = fields.get("function")
        name = cast("Mapping[str, Any]", function).get("name") if isinstance(function, Mapping) else fields.get("name")
        if isinstance(name, str) and kind in (None, "function", "tool"):
            choice = {"name": name}
        elif isinstance(kind, str):
            choice = kind
        else:
            raise ValueError(
                f"tool_choice {tool_choice!r} is neither a mode nor a {{'type': 'function', "
                f"'function': {{'name': ...}}}} object"
            )
    if isinstance(choice, str):
        mode = _MODES.get(choice)
        if mode is not None:
            return mode, None
        choice = {"name": choice}
    name = choice["name"]
    if name not in names:
        known = ", ".join(repr(n) for n in names) or "none"
        raise ValueError(
            f"tool_choice names the tool {name!r}, which is not among the tools ({known}); "
            f"use 'auto', 'none', 'required' or one of those names"
        )
    return "named", name
