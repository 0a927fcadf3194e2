"""Kimi K3's open / close grammar (`shim.parsing.readers.call_tokens`): the ``tool`` and ``key`` attributes are XML
attribute values: their entities are unescaped (``a&amp;b`` is ``a&b``) and a raw ``<`` inside them is theirs
(Aphrodite's K3 parser tests), at every split point."""

from __future__ import annotations

import html

import pytest

from tests.parsing.readers.cases import Real, check, tool

APHRODITE = "written after Aphrodite's Kimi K3 tool parser tests (benchmarks/real/kimi_k3/c21_aphro_k3_*)"


def _call(name: str, key: str, value: str, *, kind: str = "string") -> str:
    return (
        f'<|open|>tools<|sep|><|open|>call tool="{name}" index="1"<|sep|>'
        f'<|open|>argument key="{key}" type="{kind}"<|sep|>{value}<|close|>argument<|sep|>'
        "<|close|>call<|sep|><|close|>tools<|sep|>"
    )


@pytest.mark.parametrize(
    ("written", "name", "key", "value", "expected"),
    [
        ("a&amp;b&quot;c", 'a&b"c', "k&amp;q", "v", "v"),
        ("calc<beta", "calc<beta", "foo<bar", "raw", "raw"),
        ("x&lt;y", "x<y", "n", "3", 3),
        ("get_weather", "get_weather", "a<b&gt;c", "Paris", "Paris"),
    ],
)
def test_an_attribute_is_read_as_xml_writes_it(written: str, name: str, key: str, value: str, expected: object) -> None:
    kind = "number" if isinstance(expected, int) else "string"
    text = _call(written, key, value, kind=kind)
    check(Real(APHRODITE, text, [(name, {html.unescape(key): expected})], tools=[tool(name)]))


def test_a_json_block_call_unescapes_its_tool_attribute() -> None:
    text = (
        '<|open|>tools<|sep|><|open|>call tool="r&amp;d" index="1"<|sep|><|open|>json type="object"<|sep|>'
        '{"q": 1}<|close|>json<|sep|><|close|>call<|sep|><|close|>tools<|sep|>'
    )
    check(Real(APHRODITE, text, [("r&d", {"q": 1})], tools=[tool("r&d", q="integer")]))


@pytest.mark.parametrize(
    "text",
    [
        'A tool like calc<beta is named as call tool="calc<beta" in the opener.',  # prose: no token
        '<|open|>call tool="calc<|sep|>x"<|sep|>',  # a token inside the attribute: no name
    ],
)
def test_a_call_token_outside_the_rules_stays_text(text: str) -> None:
    result = check(Real(APHRODITE, text, [], tools=[tool("calc<beta"), tool("calc")]), visible=False)
    assert result["text"] == text


TRTLLM = "written after TensorRT-LLM's Kimi K3 parser tests (benchmarks/real/kimi_k3/b7_trtllm_kimik3_*)"


@pytest.mark.parametrize(
    ("attrs", "name"),
    [
        ('index="1" tool="exec"', "exec"),
        ('id="c2"  tool="functions.read_file"', "functions.read_file"),
        ('index="3" id="x" tool="查询"', "查询"),
    ],
)
def test_the_tool_attribute_may_follow_the_others(attrs: str, name: str) -> None:
    text = (
        f"Running:<|open|>tools<|sep|><|open|>call {attrs}<|sep|>"
        '<|open|>argument key="input" type="string"<|sep|>ls -l<|close|>argument<|sep|>'
        "<|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|>"
    )
    check(Real(TRTLLM, text, [(name, {"input": "ls -l"})], visible="Running:", tools=[tool(name, input="string")]))


@pytest.mark.parametrize(
    "call",
    [
        '<|open|>call index="1"<|sep|><|open|>argument key="input" type="string"<|sep|>ls<|close|>argument<|sep|>'
        "<|close|>call<|sep|>",
        '<|open|>call<|sep|>\n<|open|>argument key="path"<|sep|>a.txt<|close|>argument<|sep|><|close|>call<|sep|>',
        '<|open|>call id="7"<|sep|><|open|>argument key="q"<|sep|>1<|close|>argument<|sep|><|open|>argument key="r"'
        "<|sep|>2<|close|>argument<|sep|><|close|>call<|sep|>",
    ],
)
def test_a_call_naming_no_tool_is_an_error_carrying_it(call: str) -> None:
    text = f"Let me look.<|open|>tools<|sep|>{call}<|close|>tools<|sep|><|close|>message<|sep|>"
    result = check(Real(TRTLLM, text, [], visible="Let me look.", errors=1, tools=[tool("exec", input="string")]))
    assert "<|open|>call" in result["errors"][0]["raw"]


@pytest.mark.parametrize(
    "text",
    [
        "A nameless <|open|>call<|sep|> opener is wrong.",
        'Write <|open|>call index="1"<|sep|> with a tool attribute instead.',
    ],
)
def test_a_nameless_call_token_named_in_prose_stays_text(text: str) -> None:
    check(Real(TRTLLM, text, [], visible=text, tools=[tool("exec", input="string")]))


@pytest.mark.parametrize(
    ("text", "name", "arguments", "visible"),
    [
        (  # benchmarks/real/kimi_k3/b7_trtllm_kimik3_section_inside_unclosed_think, every split point
            f"reasoning{_call('exec', 'input', 'ls')}more reasoning<|close|>think<|sep|>"
            "<|open|>response<|sep|>ok<|close|>response<|sep|><|close|>message<|sep|>",
            "exec",
            {"input": "ls"},
            "ok",
        ),
        (  # variant: another tool and key, no reasoning after the section, the message unclosed
            f"Ich prüfe.{_call('get_weather', 'city', 'Köln')}<|close|>think<|sep|><|open|>response<|sep|>Gleich.",
            "get_weather",
            {"city": "Köln"},
            "Gleich.",
        ),
        (  # variant: the think block never closes: the call is the message's
            f"plan {_call('read_file', 'path', 'a<b.txt')}",
            "read_file",
            {"path": "a<b.txt"},
            "",
        ),
    ],
)
def test_a_section_inside_the_think_block_the_prompt_opened_is_read_at_every_split_point(
    text: str, name: str, arguments: dict[str, str], visible: str
) -> None:
    """A chunk ending at a ``<`` inside a call opener (``index="1"<``) may begin the block's closer or finish the opener:
    the reasoning waits for the next chunk before it decides the opener is none."""
    tools = [tool(name, **dict.fromkeys(arguments, "string"))]
    check(Real(TRTLLM, text, [(name, arguments)], visible, tools, in_reasoning=True))
