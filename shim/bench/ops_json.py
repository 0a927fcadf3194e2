"""Mutation operators on the call's JSON: clean controls, lenient-JSON defects and call-shape variants.

Every operator here writes one ``<function_call>`` block (the tag shim's prompt asks for); only the body
varies, so a failure in these categories is a failure to read the body, not to find it.
"""

from __future__ import annotations

import json

from shim.bench.mutations import TITLES, Call, Draw, Mutant, OperatorList, strict, tagged
from shim.bench.render import JsonStyle, dumps

__all__ = ["OPERATORS"]

OPERATORS = OperatorList()
_op = OPERATORS.add


# --- clean controls -------------------------------------------------------------------------------------


@_op("clean")
def clean_compact(draw: Draw) -> Mutant:
    """Strict JSON on one line in the primary tag: what the prompt asks for (the control case)."""
    call = draw.call()
    return Mutant(text=tagged(strict(call)), calls=[call])


@_op("clean")
def clean_pretty(draw: Draw) -> Mutant:
    """Pretty-printed JSON with line breaks around it, as chat-tuned models tend to format."""
    call = draw.call()
    return Mutant(text=tagged("\n" + strict(call, indent=2) + "\n"), calls=[call])


@_op("clean", wrap=False)
def clean_alone(draw: Draw) -> Mutant:
    """The whole message is one tagged call and nothing else."""
    call = draw.call()
    return Mutant(text=tagged(strict(call)), calls=[call])


# --- lenient JSON ---------------------------------------------------------------------------------------


def _styled(draw: Draw, style: JsonStyle, *, rich: bool = False) -> Mutant:
    call = draw.rich_call() if rich else draw.call()
    body = dumps({"name": call.name, "arguments": call.arguments}, style)
    return Mutant(text=tagged(body), calls=[call])


@_op("lenient_json")
def single_quotes(draw: Draw) -> Mutant:
    """Python-repr strings ``{'name': 'x'}``: small models trained on Python code write dicts this way."""
    return _styled(draw, JsonStyle(quote="'"))


@_op("lenient_json")
def trailing_commas(draw: Draw) -> Mutant:
    """A comma after the last member (JavaScript habit of code models)."""
    return _styled(draw, JsonStyle(trailing_commas=True, indent=2))


@_op("lenient_json")
def python_literals(draw: Draw) -> Mutant:
    """``True`` / ``False`` / ``None`` for the JSON literals."""
    return _styled(draw, JsonStyle(python_literals=True), rich=True)


@_op("lenient_json")
def unquoted_keys(draw: Draw) -> Mutant:
    """JavaScript object-literal keys ``{name: "x", arguments: {...}}``."""
    return _styled(draw, JsonStyle(unquoted_keys=True))


@_op("lenient_json")
def python_dict_repr(draw: Draw) -> Mutant:
    """Everything Python at once: single quotes, ``True``/``None``, trailing commas (a ``repr()``-ish dict)."""
    return _styled(draw, JsonStyle(quote="'", python_literals=True, trailing_commas=True, indent=1), rich=True)


@_op("lenient_json")
def line_comment(draw: Draw) -> Mutant:
    """A ``//`` comment on its own line inside the object (models annotating their arguments)."""
    call = draw.call()
    lines = strict(call, indent=2).split("\n")
    lines.insert(1, "  // " + draw.choice(("call the tool", "arguments follow", "see the schema")))
    return Mutant(text=tagged("\n".join(lines)), calls=[call])


@_op("lenient_json")
def hash_comment(draw: Draw) -> Mutant:
    """A ``#`` comment at the end of a line (Python/YAML habit)."""
    call = draw.call()
    lines = strict(call, indent=2).split("\n")
    lines[1] += "  # " + draw.choice(("the tool to run", "chosen tool"))
    return Mutant(text=tagged("\n".join(lines)), calls=[call])


@_op("lenient_json")
def raw_newlines_in_string(draw: Draw) -> Mutant:
    """A multi-line string value written with real line breaks instead of ``\\n`` (file bodies)."""
    content = "\n".join(f"line {i}: {draw.choice(('alpha', 'beta', 'gamma'))}" for i in range(draw.rng.randint(2, 5)))
    call = Call(name="write_file", arguments={"path": "notes/todo.txt", "content": content})
    body = dumps(call.to_dict(), JsonStyle(raw_newlines=True))
    return Mutant(text=tagged(body), calls=[call])


@_op("lenient_json")
def missing_closing_brackets(draw: Draw) -> Mutant:
    """The final ``}`` (or ``}}``) left off although every value is complete; the closing tag follows."""
    call = draw.call()
    body = strict(call)
    cut = draw.rng.choice((1, 2)) if call.arguments else 1
    return Mutant(text=tagged(body[:-cut]), calls=[call])


@_op("lenient_json")
def stray_extra_closer(draw: Draw) -> Mutant:
    """One ``}`` too many before the closing tag (models losing count of nesting)."""
    call = draw.call()
    return Mutant(text=tagged(strict(call) + "}"), calls=[call])


@_op("lenient_json")
def leading_json_word(draw: Draw) -> Mutant:
    """The language name of a code fence written without the fence: ``<function_call>json\\n{...}``."""
    call = draw.call()
    return Mutant(text=tagged("json\n" + strict(call)), calls=[call])


@_op("lenient_json")
def fence_inside_tags(draw: Draw) -> Mutant:
    """A ```json fence inside the tags (chat models fence every JSON they write)."""
    call = draw.call()
    return Mutant(text=tagged("\n```json\n" + strict(call, indent=2) + "\n```\n"), calls=[call])


# --- call shapes ----------------------------------------------------------------------------------------


def _keyed(draw: Draw, key: str) -> Mutant:
    call = draw.call()
    return Mutant(text=tagged(strict(call, key=key)), calls=[call])


@_op("shapes")
def key_parameters(draw: Draw) -> Mutant:
    """``"parameters"`` for the arguments (Llama 3.1 JSON tool calling, OpenAI schema vocabulary)."""
    return _keyed(draw, "parameters")


@_op("shapes")
def key_args(draw: Draw) -> Mutant:
    """``"args"`` for the arguments (LangChain tool-call dicts)."""
    return _keyed(draw, "args")


@_op("shapes")
def key_input(draw: Draw) -> Mutant:
    """``"input"`` for the arguments (Anthropic ``tool_use`` blocks imitated in text)."""
    return _keyed(draw, "input")


@_op("shapes")
def key_tool_input(draw: Draw) -> Mutant:
    """``"tool_input"`` for the arguments (LangChain agent scratchpads)."""
    return _keyed(draw, "tool_input")


@_op("shapes")
def function_wrapper(draw: Draw) -> Mutant:
    """``{"function": {"name", "arguments"}}`` (half of an OpenAI tool_calls entry)."""
    call = draw.call()
    body = json.dumps({"function": call.to_dict()})
    return Mutant(text=tagged(body), calls=[call])


@_op("shapes")
def typed_function_wrapper(draw: Draw) -> Mutant:
    """``{"type": "function", "function": {...}}``: a whole OpenAI tool_calls entry copied from training data."""
    call = draw.call()
    body = json.dumps({"type": "function", "function": call.to_dict()})
    return Mutant(text=tagged(body), calls=[call])


@_op("shapes")
def tool_key(draw: Draw) -> Mutant:
    """``{"tool": NAME, "arguments": {...}}`` (ReAct-style agents name the tool "tool")."""
    call = draw.call()
    body = json.dumps({"tool": call.name, "arguments": call.arguments})
    return Mutant(text=tagged(body), calls=[call])


@_op("shapes")
def jsonrpc_method_params(draw: Draw) -> Mutant:
    """JSON-RPC ``{"method": NAME, "params": {...}}`` (models that have read MCP traffic)."""
    call = draw.call()
    body = json.dumps({"method": call.name, "params": call.arguments})
    return Mutant(text=tagged(body), calls=[call])


@_op("shapes")
def arguments_as_string(draw: Draw) -> Mutant:
    """``"arguments"`` as a JSON-encoded string, exactly as the OpenAI API transmits it."""
    call = draw.call()
    body = json.dumps({"name": call.name, "arguments": json.dumps(call.arguments)})
    return Mutant(text=tagged(body), calls=[call])


@_op("shapes")
def missing_arguments(draw: Draw) -> Mutant:
    """No arguments key at all for a tool without parameters (``{"name": "get_time"}``)."""
    call = Call(name="get_time", arguments={})
    body = json.dumps({"name": call.name}) if draw.rng.random() < 0.5 else '{"name":"get_time"}'
    return Mutant(text=tagged(body), calls=[call])


@_op("shapes")
def name_functions_prefix(draw: Draw) -> Mutant:
    """The name written ``functions.NAME`` (OpenAI's internal namespace, leaked by models trained on it)."""
    call = draw.call()
    body = json.dumps({"name": "functions." + call.name, "arguments": call.arguments})
    return Mutant(text=tagged(body), calls=[call])


@_op("shapes")
def name_is_tool_title(draw: Draw) -> Mutant:
    """The tool's human title instead of its name (``"Weather lookup"``), as MCP ``tools/list`` shows it."""
    name = draw.choice(tuple(TITLES))
    call = next(c for c in iter(draw.call, None) if c.name == name)
    body = json.dumps({"name": TITLES[name], "arguments": call.arguments})
    return Mutant(text=tagged(body), calls=[call])
