"""Tool-name-first calls (`shim.parsing.readers.name_first`, Mistral without ``[ARGS]``), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

LLAMA_CPP = "ggml-org/llama.cpp:tests/test-chat.cpp@0042e2079d3428ba7af410df553202aa7fdf8d7a"

CASES = [
    Real(LLAMA_CPP, 'special_function\n{"arg1": 1}', [("special_function", {"arg1": 1})]),  # Functionary v3.2
    Real(  # variant: the >>> recipient marker written out, after text
        "written: Functionary v3.2 recipients",
        'Let me look.\n>>>get_weather\n{"city": "Paris"}',
        [("get_weather", {"city": "Paris"})],
        visible="Let me look.",
    ),
    Real(  # variant: spaces and a blank line between the name and its arguments
        "written", 'get_weather  \n\n  {"city": "Lima", "unit": "c"}', [("get_weather", {"city": "Lima", "unit": "c"})]
    ),
    Real(  # Mistral without [ARGS]
        "written: [TOOL_CALLS]NAME{…}", '[TOOL_CALLS]get_weather{"city": "Rome"}', [("get_weather", {"city": "Rome"})]
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text[:30])
def test_a_call_written_name_first_is_read(case: Real) -> None:
    check(case)


@pytest.mark.parametrize(
    "text",
    [
        'get_weather\nis the tool I would use: {"city": "Paris"}',  # no object right after the name
        'lookup\n{"city": "Paris"}',  # a name that was not offered
        '>>> d\n{"a": 1}',  # a Python REPL transcript
        'Use get_weather\n{"city": "Paris"}',  # not where the message begins
    ],
)
def test_a_name_and_an_object_that_are_no_call_stay_text(text: str) -> None:
    result = check(Real("written", text, [], visible=text), visible=False)
    assert result["text"] == text
