"""Qwen3-Coder's ``<function=NAME><parameter=K>V</parameter></function>`` with a blank where an ``=`` belongs:
``<parameter KEY>`` and ``<function = NAME>`` (MiniMax-M3 in xalgorix's parser tests, benchmarks/real/damaged
``a30_xal_*``), read as the canonical form wherever it is read (`shim.parsing.readers.qwen_xml`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

XALGORIX = "xalgorix/xalgorix:internal/llm/parser_test.go@e9c977d3"
TOOLS = [
    tool("terminal_execute", command="string"),
    tool("send_request", method="string", url="string", timeout="integer"),
    tool("finish", summary="string"),
    tool("读取文件", 路径="string"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # the recorded form: a blank for the parameter's `=`
            "<function=terminal_execute>\n<parameter command>curl -I https://example.com</parameter>\n</function>",
            [("terminal_execute", {"command": "curl -I https://example.com"})],
            "",
        ),
        (  # two parameters, one typed by the schema; prose around the call
            "Sending it now.\n<function=send_request>\n<parameter method>GET</parameter>\n"
            "<parameter timeout> 30 </parameter>\n</function>\nDone.",
            [("send_request", {"method": "GET", "timeout": 30})],
            "Sending it now. Done.",
        ),
        (  # a multi-line value, the blank form mixed with the canonical one, inside <tool_call>
            "<tool_call>\n<function=finish>\n<parameter  summary >line one\nline two</parameter>\n</function>\n"
            "</tool_call>",
            [("finish", {"summary": "line one\nline two"})],
            "",
        ),
        (  # blanks around the opener's `=` too, and around the parameter's
            "<function = send_request>\n<parameter = url>https://a.b</parameter>\n<parameter method>POST</parameter>"
            "\n</function>",
            [("send_request", {"url": "https://a.b", "method": "POST"})],
            "",
        ),
        (  # names in another script, one line
            "<function=读取文件><parameter 路径>/tmp/a.txt</parameter></function>",
            [("读取文件", {"路径": "/tmp/a.txt"})],
            "",
        ),
        (  # no closers: each value ends at the next opener of either spelling
            "<function=send_request>\n<parameter method> GET\n<parameter=url> https://x.y\n</function>",
            [("send_request", {"method": "GET", "url": "https://x.y"})],
            "",
        ),
    ],
)
def test_a_blank_where_the_equals_sign_belongs_is_the_same_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(XALGORIX, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Put each argument in a <parameter command> tag.",  # the tag named in a sentence, no call opener
        "The form is `<function=finish><parameter summary>x</parameter></function>`.",  # inline code
        "Write <function = finish> and then the summary.",  # an opener in prose, no parameter after it
        "<function=finish>\n<parameter 2nd>x</parameter>",  # no identifier after the blank: no parameter
        "See <parameter  url> below; it is the address.",
    ],
)
def test_the_blank_forms_in_prose_stay_text(text: str) -> None:
    check(Real(XALGORIX, text, [], visible=text, tools=TOOLS))


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # the recorded regression: the opener's `<function=` cut, the name and `>` kept
            "terminal_execute>\n<parameter=command>curl -v https://portal.flare.network/ 2>&1 | head -40</parameter>\n"
            "</function>",
            [("terminal_execute", {"command": "curl -v https://portal.flare.network/ 2>&1 | head -40"})],
            "",
        ),
        (  # opening a line after prose, indented, the blank parameter form, a typed value; prose after
            "I will send it.\n  send_request>\n<parameter url>https://a.b</parameter>\n"
            "<parameter timeout>5</parameter>\n</function>\nSent.",
            [("send_request", {"url": "https://a.b", "timeout": 5})],
            "I will send it. Sent.",
        ),
        (  # only the `<` cut: `function=NAME>` opening a line; MiniMax's parameter spelling after it
            'Voilà.\nfunction=finish>\n<parameter name="summary">fini</parameter>\n</function>',
            [("finish", {"summary": "fini"})],
            "Voilà.",
        ),
        (  # two calls, each opener cut
            "terminal_execute>\n<parameter=command>ls</parameter>\n</function>\n"
            "finish>\n<parameter=summary>listed</parameter>\n</function>",
            [("terminal_execute", {"command": "ls"}), ("finish", {"summary": "listed"})],
            "",
        ),
        (  # prose and a value in another script, CRLF line breaks
            "正在完成。\r\nfinish>\r\n<parameter=summary>评估完成</parameter>\r\n</function>",
            [("finish", {"summary": "评估完成"})],
            "正在完成。",
        ),
    ],
)
def test_an_opener_cut_to_the_tools_name_before_a_parameter_is_the_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(XALGORIX, text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "finish> is the prompt the shell shows.",  # no parameter after it
        "Type finish> <parameter=summary>x</parameter> to end.",  # mid-line, in a sentence
        "deploy>\n<parameter=target>prod</parameter>\n</function>",  # no offered tool of that name
        "Log:\n```text\nterminal_execute>\n<parameter=command>ls</parameter>\n</function>\n```",  # quoted in a fence
        "The model wrote\nfinish>\nand stopped.",  # the name and `>` alone
    ],
)
def test_a_cut_opener_without_a_parameter_or_of_no_tool_stays_text(text: str) -> None:
    check(Real(XALGORIX, text, [], visible=text, tools=TOOLS))
