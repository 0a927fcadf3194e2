"""A call written as a command line (`shim.parsing.readers.command_line`), at every split point."""

from __future__ import annotations

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [tool("web_fetch", url="string"), tool("search", query="string", limit="integer", exact="boolean")]


@pytest.mark.parametrize(
    ("text", "call", "visible"),
    [
        ('web_fetch url="https://example.com/a b"', ("web_fetch", {"url": "https://example.com/a b"}), ""),
        ("search query='cats' limit=5", ("search", {"query": "cats", "limit": 5}), ""),
        (
            'I will look.\nsearch query="say \\"hi\\"" exact=true  \nDone.',
            ("search", {"query": 'say "hi"', "exact": True}),
            "I will look.\n\nDone.",
        ),
        ("\nweb_fetch url=https://example.com\n", ("web_fetch", {"url": "https://example.com"}), "\n\n"),
    ],
)
def test_an_offered_tools_name_then_its_declared_keys_alone_on_a_line_is_a_call(
    text: str, call: tuple[str, dict[str, object]], visible: str
) -> None:
    check(Real("written", text, [call], visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        'Use web_fetch url="https://example.com" to fetch it.',  # inside a sentence
        'web_fetch url="https://example.com" then read it',  # words after the pairs
        'web_fetch href="https://example.com"',  # a key the tool does not declare
        'search query="a" query="b"',  # a key given twice
        'fetch url="https://example.com"',  # no offered tool
        'Code:\n    search query="cats"',  # indented: a line of code
        "search query='cats",  # an unclosed quote
        'For example:\nweb_fetch url="https://example.com"',  # presented as an example
        'Run `search query="cats"` in the shell.',  # inline code
    ],
)
def test_a_command_line_without_that_evidence_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=TOOLS))
