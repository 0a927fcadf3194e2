"""Mistral's ``[TOOL_CALLS]`` forms (`shim.parsing.readers.mistral`), with the call id of v11+ tokenizers."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check

W = ("get_weather", {"city": "Paris"})


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ('[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}', [W]),
        ('[TOOL_CALLS]get_weather[CALL_ID] 123456789 [ARGS]{"city": "Paris"}</s>', [W]),
        (
            '[TOOL_CALLS]get_weather[CALL_ID]abc[ARGS]{"city": "Paris"}[TOOL_CALLS]get_weather[CALL_ID]def[ARGS]'
            '{"city": "Rome"}',
            [W, ("get_weather", {"city": "Rome"})],
        ),
        ('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}', [W]),
        ('[TOOL_CALLS]get_weather{"city": "Paris"}', [W]),
    ],
)
def test_a_name_then_arguments_with_or_without_a_call_id_is_read(text: str, calls: list) -> None:
    check(Real("written: Mistral v11 tokenizer ([CALL_ID]), v7 ([ARGS]) and older", text, calls))
