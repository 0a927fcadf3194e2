"""Mutation operators for real output shapes that issue 2 does not list (category ``beyond_spec``).

They show where the parser stands on formats a user may meet next; the report keeps them out of issue 8's
bar, which is about the shapes the parser was specified for.
"""

from __future__ import annotations

import json

from shim.bench.mutations import Draw, Mutant, OperatorList

__all__ = ["OPERATORS"]

OPERATORS = OperatorList()
_op = OPERATORS.add


@_op("beyond_spec", wrap=False)
def mistral_v11_args(draw: Draw) -> Mutant:
    """``[TOOL_CALLS]NAME[ARGS]{...}`` (Mistral Small 3.x / Devstral tokenizers v11+, control tokens as text)."""
    call = draw.call()
    return Mutant(text=f"[TOOL_CALLS]{call.name}[ARGS]{json.dumps(call.arguments)}", calls=[call])


@_op("beyond_spec")
def llama31_function_equals_json(draw: Draw) -> Mutant:
    """``<function=NAME>{...}</function>`` with a JSON body (Llama 3.1's documented custom tool format)."""
    call = draw.call()
    return Mutant(text=f"<function={call.name}>{json.dumps(call.arguments)}</function>", calls=[call])


@_op("beyond_spec", wrap=False)
def llama_python_tag(draw: Draw) -> Mutant:
    """``<|python_tag|>`` then a bare call object (Llama 3.x with special tokens left in the text)."""
    call = draw.call()
    body = json.dumps({"name": call.name, "parameters": call.arguments})
    return Mutant(text=f"<|python_tag|>{body}", calls=[call])


@_op("beyond_spec", wrap=False)
def pythonic_call_list(draw: Draw) -> Mutant:
    """``[get_weather(city="Paris")]``: Python call syntax (Llama 3.2 / Llama 4 "pythonic" tool calling)."""
    call = draw.call()
    args = ", ".join(f"{k}={v!r}" for k, v in call.arguments.items())
    return Mutant(text=f"[{call.name}({args})]", calls=[call])
