"""Bracket commands in spoken text (`shim.parsing.readers.bracket_command`), at every split point."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check, tool

TOOLS = [
    tool("look", direction="string"),
    tool("express", emotion="string"),
    tool("web_search", query="string"),
    tool("set_volume", level="integer"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        ("[look right]", [("look", {"direction": "right"})], ""),
        ("Sure! [look up] Let me see.", [("look", {"direction": "up"})], "Sure! Let me see."),
        (
            "[express happy]Hello there [web_search  météo à Paris ] one moment.",
            [("express", {"emotion": "happy"}), ("web_search", {"query": "météo à Paris"})],
            "Hello there one moment.",
        ),
        ("好的 [web_search 北京天气] 请稍等", [("web_search", {"query": "北京天气"})], "好的 请稍等"),
        ("Line one.\n[look down]\nLine two.", [("look", {"direction": "down"})], "Line one.\n\nLine two."),
    ],
)
def test_an_offered_tools_name_and_words_in_brackets_is_a_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real("written", text, calls, visible=visible, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "This claim [citation needed] is doubtful.",
        "As shown in [1], it works.",
        "- [x] done\n- [ ] todo",
        "See [look left](https://example.com/look) for details.",  # a Markdown link
        "See [look left][1].\n\n[1]: https://example.com",  # a reference link
        "Please [look here] when ready.",  # `look` offered: see the next case for one not offered
        "[glance left] and [stare right]",  # no offered tool
        "[Look left] is a heading.",  # another case
        "[look]",  # no argument
        "[set_volume 5]",  # a tool of no string parameter
        "[look left\nand right]",  # a line break inside
        "Type `[look left]` to move.",  # inline code
        "```\n[look left]\n```",  # a code fence
    ],
)
def test_brackets_without_that_evidence_stay_text(text: str) -> None:
    if text.startswith("Please"):
        check(Real("written", text, [], visible=text, tools=[tool("express", emotion="string")]))
    else:
        check(Real("written", text, [], visible=text, tools=TOOLS))
