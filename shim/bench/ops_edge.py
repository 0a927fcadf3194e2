"""Mutation operators at the edges: huge arguments, truncated streams and decoys that must stay text."""

from __future__ import annotations

import json

from shim.bench.mutations import Call, Draw, Mutant, OperatorList, strict, tagged
from shim.bench.render import JsonStyle, dumps

__all__ = ["OPERATORS"]

OPERATORS = OperatorList()
_op = OPERATORS.add


# --- huge arguments -------------------------------------------------------------------------------------


def _file_body(draw: Draw) -> str:
    lines: list[str] = []
    size = 0
    while size < draw.huge_chars:
        n = len(lines)
        line = f'    print("row {n}", {{"k": [{n}, {n * 7 % 13}]}})  # {draw.choice(("ok", "todo", "<b>"))}'
        lines.append(line)
        size += len(line) + 1
    return "def main():\n" + "\n".join(lines) + "\n"


@_op("huge")
def huge_argument(draw: Draw) -> Mutant:
    """A whole file body as one argument (coding agents writing files), escaped as strict JSON."""
    call = Call(name="write_file", arguments={"path": "src/main.py", "content": _file_body(draw)})
    return Mutant(text=tagged(strict(call)), calls=[call])


@_op("huge")
def huge_argument_raw_newlines(draw: Draw) -> Mutant:
    """A whole file body with real line breaks inside the string (lenient and large at once)."""
    call = Call(name="write_file", arguments={"path": "src/main.py", "content": _file_body(draw)})
    return Mutant(text=tagged(dumps(call.to_dict(), JsonStyle(raw_newlines=True))), calls=[call])


# --- truncation: a stream cut mid-value is an error, never a call ---------------------------------------


def _cut(draw: Draw, marker: str, *, keep: int) -> Mutant:
    """Cut a tagged call ``keep`` characters after ``marker`` (no closing tag: the stream simply stops)."""
    call = Call(name="get_weather", arguments={"city": draw.choice(("Paris", "Tokyo", "Oslo")), "unit": "celsius"})
    body = json.dumps({"name": call.name, "arguments": {**call.arguments, "detailed": True}})
    at = body.index(marker) + keep
    return Mutant(text="<function_call>" + body[:at], calls=[], errors=1)


@_op("truncation", tail=False)
def cut_mid_string_value(draw: Draw) -> Mutant:
    """The stream stops inside a string value (``max_tokens`` reached): ``"city": "Par``."""
    return _cut(draw, '"city": "', keep=len('"city": "') + 2)


@_op("truncation", tail=False)
def cut_mid_key(draw: Draw) -> Mutant:
    """The stream stops inside a key: ``"city": "Paris", "un``."""
    return _cut(draw, '"unit"', keep=3)


@_op("truncation", tail=False)
def cut_after_colon(draw: Draw) -> Mutant:
    """The stream stops after a key's colon, before its value."""
    return _cut(draw, '"unit": ', keep=len('"unit": '))


@_op("truncation", tail=False)
def cut_mid_literal(draw: Draw) -> Mutant:
    """The stream stops inside a literal: ``"detailed": tr``."""
    return _cut(draw, '"detailed": ', keep=len('"detailed": ') + 2)


@_op("truncation", tail=False)
def cut_mid_name(draw: Draw) -> Mutant:
    """The stream stops inside the tool name."""
    return _cut(draw, '"name": "', keep=len('"name": "') + 5)


@_op("truncation", tail=False)
def cut_in_closed_tag(draw: Draw) -> Mutant:
    """A cut body followed by a closing tag (an engine that appends its stop string)."""
    cut = _cut(draw, '"city": "', keep=len('"city": "') + 3)
    return Mutant(text=cut.text + "</function_call>", calls=[], errors=1)


# --- decoys: all of these are text --------------------------------------------------------------------


def _decoy(text: str) -> Mutant:
    return Mutant(text=text, calls=[], visible=text)


@_op("decoys", wrap=False)
def plain_prose(draw: Draw) -> Mutant:
    """Prose with no call at all."""
    return _decoy(f"{draw.pre()} The weather in Paris is mild today. {draw.post()}")


@_op("decoys", wrap=False)
def html_markup(draw: Draw) -> Mutant:
    """HTML in an answer about web pages."""
    return _decoy(f'Use <div class="card"><span>{draw.choice(("Hi", "Ok"))}</span></div> and a <br/> tag.')


@_op("decoys", wrap=False)
def comparison_operators(draw: Draw) -> Mutant:
    """Less-than signs in maths and code: ``a < b``, ``x<y``."""
    return _decoy(f"If a < b and b <{draw.choice(('c', ' 10'))} then a<b holds; 3 > 2.")


@_op("decoys", wrap=False)
def heart_emoticon(draw: Draw) -> Mutant:
    """``<3`` in a friendly sign-off."""
    return _decoy(f"Thanks, {draw.choice(('I', 'we'))} <3 this project!")


@_op("decoys", wrap=False)
def tag_name_prefix_word(draw: Draw) -> Mutant:
    """A tag whose name starts like a call tag: ``<functionality>``, ``<tools>``."""
    return _decoy(f"Replace <functionality> with the {draw.choice(('<tools>', '<function_name>'))} you need.")


@_op("decoys", wrap=False)
def lone_tag_in_prose(draw: Draw) -> Mutant:
    """A lone ``<function_call>`` mentioned in prose, never followed by a call body."""
    return _decoy(f"To use a tool, write <function_call> and then {draw.choice(('the JSON', 'a name'))}.")


@_op("decoys", wrap=False)
def tag_in_inline_code(draw: Draw) -> Mutant:
    """The call tag quoted in inline code while explaining the format."""
    return _decoy("Wrap calls in `<function_call>` and `</function_call>` tags.")


@_op("decoys", wrap=False)
def fenced_package_json(draw: Draw) -> Mutant:
    """A fenced ``package.json`` (``"name"`` plus ``"scripts"``, but not a known tool)."""
    data = {"name": draw.choice(("my-app", "web")), "version": "1.0.0", "scripts": {"test": "vitest"}}
    return _decoy("Here is the file:\n```json\n" + json.dumps(data, indent=2) + "\n```\nRun npm install.")


@_op("decoys", wrap=False)
def bare_json_unknown_name(draw: Draw) -> Mutant:
    """A whole-message JSON object whose ``name`` is not a tool (structured data, not a call)."""
    return _decoy(json.dumps({"name": draw.choice(("Ada Lovelace", "my-app")), "arguments": {"x": 1}}))


@_op("decoys", wrap=False)
def prose_narrates_call(draw: Draw) -> Mutant:
    """Prose that describes a call with inline JSON instead of making it."""
    return _decoy(f'I would call get_weather with {{"city": "{draw.choice(("Paris", "Oslo"))}"}} to find out.')


@_op("decoys", wrap=False)
def ends_in_partial_tag(draw: Draw) -> Mutant:
    """The stream ends in the first letters of a tag: ``... <func``."""
    return _decoy(f"{draw.pre()} The answer is <{draw.choice(('func', 'function', 'tool_c'))}")
