"""A call tag with an XML namespace prefix it declares (``<qwen:tool_call xmlns:qwen="…">``): its elements read
without the prefix (`shim.parsing.readers.namespaced`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

VLLM_CHILL = "efortin/vllm-chill:test/data/tool-calls.json@93fdcfdd0b41a5c34e3149eb2a80a36d56173020"
VARIANT = "shim's own variants of the general form"
TOOLS = [
    tool("k8s.scale", namespace="string", deployment="string", replicas="integer"),
    tool("read_file", path="string"),
    tool("get_weather", city="string", days="integer"),
]


@pytest.mark.parametrize(
    ("source", "text", "calls", "visible"),
    [
        (
            VLLM_CHILL,
            '<qwen:tool_call xmlns:qwen="http://qwen.ai/schema">\n  <qwen:tool_name>k8s.scale</qwen:tool_name>\n'
            '  <qwen:tool_arguments>{"namespace":"ai-apps","deployment":"vllm","replicas":2}</qwen:tool_arguments>\n'
            "</qwen:tool_call>",
            [("k8s.scale", {"namespace": "ai-apps", "deployment": "vllm", "replicas": 2})],
            "",
        ),
        (
            VLLM_CHILL,
            'Stand by: <tool:call xmlns:tool="urn:tool" name = "k8s.scale">\n  <tool:args><namespace>ai-apps</namespace>'
            "<deployment>vllm</deployment><replicas>1</replicas></tool:args>\n</tool:call>",
            [("k8s.scale", {"namespace": "ai-apps", "deployment": "vllm", "replicas": 1})],
            "Stand by:",
        ),
        (  # other prefix, the declaration after another attribute, the arguments as elements under the prefix
            VARIANT,
            "Voy a leerlo.\n<a:function_call id='c1' xmlns:a='urn:x'>\n<a:name>read_file</a:name>\n"
            "<a:arguments><a:path>docs/año.md</a:path></a:arguments>\n</a:function_call>\nListo.",
            [("read_file", {"path": "docs/año.md"})],
            "Voy a leerlo. Listo.",
        ),
        (  # the tool named by a tool= attribute, JSON arguments, two calls
            VARIANT,
            '<m:invoke xmlns:m="urn:m" tool="get_weather"><m:parameters>{"city": "Lima", "days": 3}</m:parameters>'
            '</m:invoke>\n<m:invoke xmlns:m="urn:m" tool="get_weather"><m:parameters>{"city": "Oslo"}</m:parameters>'
            "</m:invoke>",
            [("get_weather", {"city": "Lima", "days": 3}), ("get_weather", {"city": "Oslo"})],
            "",
        ),
    ],
)
def test_a_call_tag_in_its_declared_namespace_is_its_call(
    source: str, text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(source, text, calls, visible=visible, tools=TOOLS))


def test_after_a_reasoning_block_and_beside_a_think_block_the_row_reads_alike() -> None:
    # a reasoning block searches for call openers with one union of the table's rows (its groups made anonymous)
    text = (
        '<think>Read it.</think>\n<n:tool_call xmlns:n="urn:n"><n:name>read_file</n:name>'
        '<n:arguments>{"path": "a.md"}</n:arguments></n:tool_call>'
    )
    got = check(Real(VARIANT, text, [("read_file", {"path": "a.md"})], visible="", tools=TOOLS, reasoning="Read it."))
    assert not got["errors"]
    check(Real(VARIANT, "<think>Plan.</think>\nHello.", [], visible="Hello.", tools=TOOLS, reasoning="Plan."))


def test_a_prefix_other_than_the_declared_one_stays_text() -> None:
    text = '<q:tool_call xmlns:r="urn:r"><q:name>read_file</q:name></q:tool_call>'
    check(Real(VARIANT, text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        '<q:tool_call xmlns:q="urn:q"><q:tool_name>delete_all</q:tool_name></q:tool_call>',  # no offered tool
        "<q:tool_call><q:tool_name>read_file</q:tool_name></q:tool_call>",  # no declaration: some family's prefix
        '<q:record xmlns:q="urn:q"><q:name>read_file</q:name></q:record>',  # no call tag
        'Write `<q:tool_call xmlns:q="urn:q"><q:name>read_file</q:name></q:tool_call>` in the reply.',  # inline code
        "The q:tool_call element in the urn:q namespace names the tool read_file.",  # named in a sentence
    ],
)
def test_a_namespaced_tag_of_no_call_or_in_prose_stays_text(text: str) -> None:
    check(Real(VARIANT, text, [], visible=text, tools=TOOLS))
