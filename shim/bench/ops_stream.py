"""Mutation operators on how calls sit in the stream: tags, dialects, several calls, reasoning, strings.

Operators for size, truncation and decoys are in :mod:`shim.bench.ops_edge`.
"""

from __future__ import annotations

import json

from shim.bench.mutations import Call, Draw, Mutant, OperatorList, strict, tagged

__all__ = ["OPERATORS"]

OPERATORS = OperatorList()
_op = OPERATORS.add


# --- tags -----------------------------------------------------------------------------------------------


def _in_tag(draw: Draw, tag: str, *, close: str | None = None) -> Mutant:
    call = draw.call()
    return Mutant(text=tagged(strict(call), tag, close=close), calls=[call])


@_op("tags")
def tag_tool_call(draw: Draw) -> Mutant:
    """``<tool_call>`` (Hermes 2 Pro / Qwen2.5 chat templates)."""
    return _in_tag(draw, "tool_call")


@_op("tags")
def tag_functioncall(draw: Draw) -> Mutant:
    """``<functioncall>`` without underscore (glaive-function-calling fine-tunes)."""
    return _in_tag(draw, "functioncall")


@_op("tags")
def tag_tool(draw: Draw) -> Mutant:
    """``<tool>`` (minimal custom prompts)."""
    return _in_tag(draw, "tool")


@_op("tags")
def tag_upper_case(draw: Draw) -> Mutant:
    """``<FUNCTION_CALL>`` in capitals."""
    return _in_tag(draw, "FUNCTION_CALL")


@_op("tags")
def tag_mixed_case(draw: Draw) -> Mutant:
    """``<Function_Call>``: opening and closing tag in title case."""
    return _in_tag(draw, "Function_Call")


@_op("tags")
def tag_inner_whitespace(draw: Draw) -> Mutant:
    """Whitespace inside the brackets: ``<function_call >...</function_call >``."""
    call = draw.call()
    return Mutant(text=f"<function_call >{strict(call)}</function_call >", calls=[call])


@_op("tags", tail=False)
def missing_closing_tag_at_end(draw: Draw) -> Mutant:
    """No closing tag and the stream ends: engines strip a ``</function_call>`` stop sequence from the output."""
    call = draw.call()
    return Mutant(text=tagged(strict(call), close=""), calls=[call])


@_op("tags", wrap=False)
def missing_closing_tag_text_follows(draw: Draw) -> Mutant:
    """No closing tag, prose follows the complete JSON."""
    call = draw.call()
    post = draw.post()
    return Mutant(text=tagged(strict(call), close="") + "\n" + post, calls=[call], visible=post)


@_op("tags")
def duplicated_opening_tag(draw: Draw) -> Mutant:
    """The opening tag written twice (a stutter); the empty first block may be reported or not."""
    call = draw.call()
    return Mutant(text="<function_call>\n" + tagged(strict(call)), calls=[call], errors=None)


@_op("tags")
def duplicated_closing_tag(draw: Draw) -> Mutant:
    """The closing tag written twice; the stray closer is markup and must not reach the user."""
    call = draw.call()
    return Mutant(text=tagged(strict(call)) + "</function_call>", calls=[call], errors=None)


# --- dialects -------------------------------------------------------------------------------------------


def _qwen3_coder(call: Call) -> str:
    params = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in call.arguments.items())
    return f"<function={call.name}>\n{params}</function>"


def _string_call(draw: Draw) -> Call:
    # Qwen3-Coder parameter values are untyped text; strings keep the expectation free of type guessing.
    return Call(name="get_weather", arguments={"city": draw.choice(("Paris", "Tokyo", "Oslo")), "unit": "celsius"})


@_op("dialects")
def qwen3_coder_xml(draw: Draw) -> Mutant:
    """``<tool_call><function=NAME><parameter=K>V</parameter></function></tool_call>`` (Qwen3-Coder template)."""
    call = _string_call(draw)
    return Mutant(text=tagged("\n" + _qwen3_coder(call) + "\n", "tool_call"), calls=[call])


@_op("dialects")
def qwen3_coder_xml_bare(draw: Draw) -> Mutant:
    """The Qwen3-Coder function block without the ``<tool_call>`` wrapper (the wrapper token dropped)."""
    call = _string_call(draw)
    return Mutant(text=_qwen3_coder(call), calls=[call])


@_op("dialects")
def tool_request_brackets(draw: Draw) -> Mutant:
    """``[TOOL_REQUEST]{...}[END_TOOL_REQUEST]`` (LM Studio's default for models without tool tokens)."""
    call = draw.call()
    return Mutant(text=f"[TOOL_REQUEST]\n{strict(call)}\n[END_TOOL_REQUEST]", calls=[call])


@_op("dialects", wrap=False)
def tool_calls_list(draw: Draw) -> Mutant:
    """``[TOOL_CALLS][{...}]`` (Mistral 7B v0.3 / Nemo when the control token is rendered as text)."""
    call = draw.call()
    return Mutant(text="[TOOL_CALLS] " + json.dumps([call.to_dict()]), calls=[call])


@_op("dialects", wrap=False)
def fenced_json_message(draw: Draw) -> Mutant:
    """The whole message is a ```json fence around a call naming a known tool (chat models without tags)."""
    call = draw.call()
    return Mutant(text="```json\n" + strict(call, indent=2) + "\n```", calls=[call])


@_op("dialects", wrap=False)
def bare_json_message(draw: Draw) -> Mutant:
    """The whole message is a bare JSON call object (what most models do when told "answer in JSON")."""
    call = draw.call()
    return Mutant(text=strict(call), calls=[call])


@_op("dialects", wrap=False)
def bare_json_parameters(draw: Draw) -> Mutant:
    """Bare ``{"name", "parameters"}`` as the whole message (Llama 3.1/3.2 JSON-based tool calling)."""
    call = draw.call()
    return Mutant(text=strict(call, key="parameters"), calls=[call])


# --- several calls --------------------------------------------------------------------------------------


@_op("multi")
def sequential_tags(draw: Draw) -> Mutant:
    """Two or three tagged calls with prose between them."""
    calls = draw.calls(draw.rng.randint(2, 3))
    parts: list[str] = []
    visible: list[str] = []
    for i, call in enumerate(calls):
        parts.append(tagged(strict(call)))
        if i < len(calls) - 1:
            between = draw.choice(("\nAnd also:\n", "\n", " Next: "))
            parts.append(between)
            visible.append(between)
    return Mutant(text="".join(parts), calls=calls, visible=" ".join(visible))


@_op("multi")
def back_to_back_tags(draw: Draw) -> Mutant:
    """Parallel calls as adjacent blocks with nothing between (Hermes/Qwen2.5 parallel calling)."""
    calls = draw.calls(2)
    return Mutant(text="".join(tagged(strict(c), "tool_call") for c in calls), calls=calls)


@_op("multi")
def array_in_tag(draw: Draw) -> Mutant:
    """A JSON array of calls inside one tag."""
    calls = draw.calls(2)
    return Mutant(text=tagged(json.dumps([c.to_dict() for c in calls])), calls=calls)


@_op("multi")
def glued_objects(draw: Draw) -> Mutant:
    """Two call objects glued ``}{`` inside one tag."""
    calls = draw.calls(2)
    return Mutant(text=tagged("".join(strict(c) for c in calls)), calls=calls)


@_op("multi")
def glued_objects_newline(draw: Draw) -> Mutant:
    """Two call objects on consecutive lines inside one tag (JSON Lines)."""
    calls = draw.calls(2)
    return Mutant(text=tagged("\n" + "\n".join(strict(c) for c in calls) + "\n"), calls=calls)


@_op("multi", wrap=False)
def tool_calls_list_two(draw: Draw) -> Mutant:
    """``[TOOL_CALLS]`` with two calls (Mistral parallel calls)."""
    calls = draw.calls(2)
    return Mutant(text="[TOOL_CALLS]" + json.dumps([c.to_dict() for c in calls]), calls=calls)


@_op("multi", wrap=False)
def bare_json_array_message(draw: Draw) -> Mutant:
    """The whole message is a bare JSON array of calls."""
    calls = draw.calls(2)
    return Mutant(text=json.dumps([c.to_dict() for c in calls], indent=2), calls=calls)


# --- reasoning ------------------------------------------------------------------------------------------


@_op("reasoning", wrap=False)
def call_only_in_think(draw: Draw) -> Mutant:
    """A call drafted inside ``<think>`` and never made (DeepSeek-R1 / Qwen3 reasoning): a draft, not a call."""
    call = draw.call()
    answer = draw.choice(("I do not need a tool after all.", "The answer is 42.", "Let me ask you first."))
    text = f"<think>\nI could write {tagged(strict(call))} but maybe not.\n</think>\n\n{answer}"
    return Mutant(text=text, calls=[], visible=answer)


@_op("reasoning", wrap=False)
def think_draft_then_call(draw: Draw) -> Mutant:
    """A draft call in ``<think>``, then the real call after it: only the second counts."""
    draft, call = draw.call(), draw.call()
    text = f"<think>\nMaybe {tagged(strict(draft))}? No, better:\n</think>\n{tagged(strict(call))}"
    return Mutant(text=text, calls=[call])


# --- tags and braces inside strings ---------------------------------------------------------------------


def _content_call(content: str) -> Mutant:
    call = Call(name="write_file", arguments={"path": "docs/tools.md", "content": content})
    return Mutant(text=tagged(strict(call)), calls=[call])


@_op("strings")
def closing_tag_in_string(draw: Draw) -> Mutant:
    """A ``</function_call>`` inside a string value (a model writing docs about its own format)."""
    return _content_call(f"End each call with </function_call> {draw.choice(('always', 'please'))}.")


@_op("strings")
def opening_tag_in_string(draw: Draw) -> Mutant:
    """An opening ``<function_call>`` and a ``<think>`` inside a string value."""
    return _content_call(f"Start with <function_call> and never {draw.choice(('<think>', '<tool_call>'))} here.")


@_op("strings")
def braces_in_string(draw: Draw) -> Mutant:
    """Unbalanced braces and brackets inside a string value (code snippets)."""
    return _content_call(draw.choice(("if (x) { return [1, 2", "}} ]] {{", 'fn main() { println!("}"); ')))


@_op("strings")
def escapes_in_string(draw: Draw) -> Mutant:
    """Escaped quotes, backslashes and tabs inside a string value (Windows paths, quoted speech)."""
    return _content_call(draw.choice(('She said "hi" \\ C:\\temp\\new\tok', 'a \\"quoted\\" \\\\ path')))


# --- unicode --------------------------------------------------------------------------------------------


@_op("unicode")
def unicode_arguments(draw: Draw) -> Mutant:
    """Non-ASCII argument values written as UTF-8 (accents, CJK, emoji)."""
    city = draw.choice(("Zürich", "東京", "São Paulo", "Αθήνα", "Kraków 🌧️"))
    call = Call(name="get_weather", arguments={"city": city, "unit": "celsius"})
    return Mutant(text=tagged(strict(call)), calls=[call])


@_op("unicode")
def unicode_escaped(draw: Draw) -> Mutant:
    """Non-ASCII values written as ``\\uXXXX`` escapes (models imitating ``json.dumps`` output)."""
    city = draw.choice(("Zürich", "東京", "Kraków 🌧️"))
    call = Call(name="get_weather", arguments={"city": city, "unit": "celsius"})
    return Mutant(text=tagged(json.dumps(call.to_dict(), ensure_ascii=True)), calls=[call])


@_op("unicode", wrap=False)
def unicode_prose(draw: Draw) -> Mutant:
    """Non-Latin prose around a call (a multilingual chat)."""
    pre = draw.choice(("天気を調べます。", "Je vérifie la météo…", "Проверяю погоду 🌤"))
    post = draw.choice(("少々お待ちください。", "Un instant ⏳", "Секунду."))
    call = draw.call()
    return Mutant(text=f"{pre}\n{tagged(strict(call))}\n{post}", calls=[call], visible=f"{pre} {post}")
