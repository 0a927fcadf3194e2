"""``Action: NAME: INPUT`` then ``PAUSE`` (Simon Willison's ReAct loop, "AI Agents in LangGraph"): the input after
the name's colon is the value of the tool's one parameter as written (never evaluated), or the arguments when it
is a JSON object or keyword pairs; the same line followed by prose, in a fence, presented, or naming a tool not
offered stays text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.readers.cases import Real, check

_COURSE = "RooTBeaM/chatbot:graph/learn/lesson_1.ipynb@116cda51447a17af3c3b83356f586d317eecaa3f"


def _tool(name: str, *keys: str, required: bool = True) -> dict[str, Any]:
    properties = {key: {"type": "string"} for key in keys}
    schema = {"type": "object", "properties": properties, "required": list(keys) if required else []}
    return {"name": name, "inputSchema": schema}


_TOOLS = [
    _tool("calculate", "what"),
    _tool("average_dog_weight", "name"),
    _tool("wikipedia", "query"),
    _tool("send_mail", "to", "body"),
]


@pytest.mark.parametrize(
    ("text", "calls", "visible"),
    [
        (  # the course's form: a Thought, the action, PAUSE
            "Thought: add them.\nAction: calculate: (average_dog_weight: Border Collie) + 37\nPAUSE",
            [("calculate", {"what": "(average_dog_weight: Border Collie) + 37"})],
            "Thought: add them.",
        ),
        (  # a blank line before the action, PAUSE with blanks, then the line break
            "Thought: look it up.\n\nAction: average_dog_weight: Toy Poodle\nPAUSE  \n",
            [("average_dog_weight", {"name": "Toy Poodle"})],
            "Thought: look it up.",
        ),
        ("Action: wikipedia: Django", [("wikipedia", {"query": "Django"})], ""),  # the output ends after the line
        (  # a numbered label, no blank after the colon, a blank line before PAUSE, Spanish
            "Pensamiento: busco.\nAction 2: wikipedia:Ciudad de México\n\nPAUSE",
            [("wikipedia", {"query": "Ciudad de México"})],
            "Pensamiento: busco.",
        ),
        ('Action: average_dog_weight: "Scottish Terrier"', [("average_dog_weight", {"name": "Scottish Terrier"})], ""),
        (  # a JSON object is the arguments, also for a tool of two parameters
            'Action: send_mail: {"to": "ana@example.com", "body": "hola"}\nPAUSE',
            [("send_mail", {"to": "ana@example.com", "body": "hola"})],
            "",
        ),
        ("Action: calculate: 4 * 7 / 3<|eot_id|>", [("calculate", {"what": "4 * 7 / 3"})], ""),  # a turn-end token
        (  # PAUSE, then the model writes on: the call stands, the rest is text
            "Action: wikipedia: France\nPAUSE\n\nObservation: France is a country.",
            [("wikipedia", {"query": "France"})],
            "Observation: France is a country.",
        ),
    ],
)
def test_a_raw_input_after_the_names_colon_is_the_call(
    text: str, calls: list[tuple[str, dict[str, Any]]], visible: str
) -> None:
    check(Real(_COURSE, text, calls, visible=visible, tools=_TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "Action: calculate: 2 + 2\nThat is the form the loop expects.",  # prose after the line
        "Write Action: calculate: 2 + 2 and then PAUSE.",  # not at a line's start
        "Action: delete_everything: now\nPAUSE",  # not an offered tool
        "Action: send_mail: ana, hola\nPAUSE",  # raw text for a tool of two parameters
        "```\nAction: calculate: 1 + 1\nPAUSE\n```",  # shown in a fence
        "For example:\nAction: wikipedia: Django\nPAUSE",  # presented
        "Action: calculate: 2 + 2\nPAUSED here, more later.",  # not the stop word alone on its line
    ],
)
def test_a_colon_action_that_is_no_call_stays_text(text: str) -> None:
    check(Real("written", text, [], visible=text, tools=_TOOLS))
