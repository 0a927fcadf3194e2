"""A model's call syntax as data: the markers its chat template writes around calls, and how it spells a
tool's name and arguments. `shim.profiles.from_template` reads one from a template; a `ModelProfile` carries
it; `shim.parsing.readers.derived` reads output written in it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

import regex

__all__ = ["CALL_ID", "ArgumentsForm", "CallSyntax", "NameAt", "marker_pattern"]

CALL_ID = "@call_id@"
"""Where a marker holds the call's id (``[CALL_ID]@call_id@[ARGS]``): any id matches there."""

NameAt = Literal["json", "key", "markup"]
ArgumentsForm = Literal["json", "json_string", "params", "pythonic"]


@dataclass(frozen=True, kw_only=True)
class CallSyntax:
    """How a model writes tool calls, read from its chat template."""

    name_at: NameAt
    """``json``: each call is a JSON object holding the name; ``key``: a JSON object whose one key is the name
    and whose value the arguments (``{"get_weather": {…}}``); ``markup``: the name is written bare in markup."""
    arguments: ArgumentsForm
    """How the arguments are written (``name_at="json"``: always ``json``, inside the object)."""
    block_open: str = ""
    """Before the first call only (``<|tool_calls_section_begin|>``, ``[TOOL_CALLS][``)."""
    block_close: str = ""
    """After the last call only."""
    call_open: str = ""
    """Before each call: up to its JSON object, or up to its name."""
    call_close: str = ""
    """After each call."""
    separator: str = ""
    """Between one call's close and the next call's open (whitespace aside)."""
    name_close: str = ""
    """``markup``: between the name and the arguments (``>\\n``, ``<|tool_call_argument_begin|>``, ``(``)."""
    param_open: str = ""
    """``params``: before each key (``<parameter=``, ``<arg_key>``)."""
    param_key_close: str = ""
    """``params``: between key and value (``>``, ``</arg_key><arg_value>``)."""
    param_close: str = ""
    """``params``: after each value (``</parameter>``)."""
    param_separator: str = ""
    """``params``: between parameters besides whitespace (``,``)."""
    param_quote: str = ""
    """``params``: around a text value, where other values go bare (Gemma 4's ``<|"|>``)."""

    @property
    def opener(self) -> str:
        """What the first call starts with (the block's marker, then the call's, any whitespace between)."""
        return f"{self.block_open} {self.call_open}".strip()

    def describe(self) -> list[tuple[str, str]]:
        """The syntax as (field, value) rows for people (``shim profiles --template``)."""
        fields = ["name_at", "arguments", "block_open", "call_open", "name_close", "param_open", "param_key_close"]
        fields += ["param_quote", "param_close", "param_separator", "call_close", "separator", "block_close"]
        return [(f, json.dumps(getattr(self, f), ensure_ascii=False)) for f in fields if getattr(self, f) != ""]


def marker_pattern(marker: str) -> str:
    """A marker as a lenient pattern: a whitespace run matches any run (or none), digits match any digits, an
    attribute's quoted value any value, the call id any id."""
    out: list[str] = []
    for piece in regex.findall(r'@call_id@|="[^"<>\s]*"|\s+|\d+|[^\s\d]+?(?=@call_id@|="[^"<>\s]*"|\s|\d|$)', marker):
        if piece == CALL_ID:
            out.append(r"[\w\-]*")
        elif piece.startswith('="'):
            out.append(r'="[^"<>\s]*"')  # an attribute's value varies: string="true" / string="false"
        elif piece.isspace():
            out.append(r"\s*")
        elif piece.isdigit():
            out.append(r"\d+")
        else:
            out.append(regex.escape(piece))
    return "".join(out)
