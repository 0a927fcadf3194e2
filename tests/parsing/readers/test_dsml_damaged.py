# ruff: noqa: RUF001  (the full-width bars are DeepSeek's real tokens)
"""DSML as DeepSeek's web chat damages it (`shim.parsing.readers.dsml`), at every split point: the namespace's bars
of any width and count, blanks among them, a Chinese character in a bar's place, a parameter closed by a plain
``</parameter>`` or by a closer that lost its name, the XML form's ``<parameter name=…>`` inside a DSML invoke, and
parameters with no invoke around them."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

DEEPBLACK = "Vitorvzp/deepblack-bridge:tests@5222e01467082fc36c2339b964081519ec7e59c3"
WRITTEN = "written: variants of deepblack-bridge's captured payloads"

BASH = tool("bash", command="string", timeout="integer")
READ = tool("read", filePath="string")
WRITE = tool("write", filePath="string", content="string")

CASES = [
    Real(  # one ASCII bar each side, a blank after it, the parameter closed by the plain XML closer
        DEEPBLACK,
        '<|DSML| invoke name="read">\n<|DSML| parameter name="filePath" string="true">C:\\temp\\a.txt</parameter>\n'
        "</|DSML| invoke>",
        [("read", {"filePath": "C:\\temp\\a.txt"})],
        tools=[READ],
    ),
    Real(  # three bars, mixed widths, blanks among them; prose around; an integer typed by the schema
        WRITTEN,
        'Running it now.\n<｜|｜DSML｜ | invoke name="bash">\n<｜|｜DSML｜ | parameter name="command">ls -la</｜|｜DSML｜ | '
        'parameter>\n<｜|｜DSML｜ | parameter name="timeout">30</parameter>\n</｜|｜DSML｜ | invoke>\nDone.',
        [("bash", {"command": "ls -la", "timeout": 30})],
        visible="Running it now. Done.",
        tools=[BASH],
    ),
    Real(  # a Chinese character where the first bar stands, on every tag
        DEEPBLACK,
        '<该DSML｜ invoke name="read">\n<该DSML｜ parameter name="filePath" string="true">notas.md</parameter>\n'
        "</该DSML｜ invoke>",
        [("read", {"filePath": "notas.md"})],
        tools=[READ],
    ),
    Real(  # the hybrid: a DSML parameter closed plainly, then the XML form's element, its layout newlines dropped
        DEEPBLACK,
        '<｜｜DSML｜｜ invoke name="write">\n<｜｜DSML｜｜ parameter name="filePath" string="true">b.md</parameter>\n'
        '<parameter name="content">\n# Título\n\nlinha\n</parameter>\n</｜｜DSML｜｜ invoke>',
        [("write", {"filePath": "b.md", "content": "# Título\n\nlinha"})],
        tools=[WRITE],
    ),
    Real(  # no invoke: the parameters' tool is the one offered tool taking them; a nameless closer after ` #`
        DEEPBLACK,
        '<｜该DSML｜｜ calls>\n<｜该DSML｜｜ parameter name="command">echo "a b" #</｜｜DSML｜｜>\n</｜｜DSML｜｜ calls>',
        [("bash", {"command": 'echo "a b"'})],
        tools=[BASH, READ],
    ),
    Real(  # the same with traditional 該, two parameters, one closed in full
        WRITTEN,
        '<｜該DSML｜｜ calls>\n<｜該DSML｜｜ parameter name="filePath">x.txt</｜｜DSML｜｜ parameter>\n'
        '<｜該DSML｜｜ parameter name="content">hi</｜｜DSML｜｜>\n</｜｜DSML｜｜ calls>',
        [("write", {"filePath": "x.txt", "content": "hi"})],
        tools=[READ, WRITE],
    ),
    Real(  # a `#` inside the value stays the value's: only ` #` right before a nameless closer is debris
        WRITTEN,
        '<｜DSML｜invoke name="bash">\n<｜DSML｜parameter name="command">echo 1 # note</｜DSML｜parameter>\n'
        "</｜DSML｜invoke>",
        [("bash", {"command": "echo 1 # note"})],
        tools=[BASH],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.text[:40])
def test_damaged_dsml_is_read_at_every_split_point(case: Real) -> None:
    check(case)


def test_parameters_with_no_invoke_that_no_one_tool_takes_are_an_error() -> None:
    text = '<｜DSML｜ calls>\n<｜DSML｜ parameter name="path">a</｜DSML｜ parameter>\n</｜DSML｜ calls>'
    check(Real(WRITTEN, text, [], tools=[BASH, READ], errors=1), visible=False)


@pytest.mark.parametrize(
    "text",
    [
        'Write `<该DSML｜ invoke name="read">` to call it.',  # an inline code example
        "Use a pipe: <| DSML |> is not a tag, nor is <该DSML｜>.",  # namespace-like words with no element
        'Type <|DSML| parameter name="filePath"> by hand.',  # a parameter outside any wrapper or invoke
    ],
)
def test_damaged_dsml_named_in_prose_stays_text(text: str) -> None:
    result = check(Real(WRITTEN, text, [], tools=[READ]), visible=False)
    assert result["text"] == text
