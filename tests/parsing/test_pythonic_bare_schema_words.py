"""Unquoted words no Python name spells (``new_time=13:00``, ``day=Lunedì``) in a Python-style call opening the
message, for keys the offered tool's schema declares strings (`shim.parsing.pythonic.parse_pythonic`, KMLLMChat's
harness prompt): the text they spell, at every split point; for a key of another type, an undeclared key, or a
call in prose, text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.parsing.chunking import parse_everywhere
from tests.parsing.readers.cases import Real, check, tool

SOURCE = "eldemaster/KMLLMChat:tests/test_tool_parsing.py@1be33613"
TOOLS = [
    tool("modify_activity", old_name="string", day="string", new_time="string", force="boolean", count="integer"),
    tool("book_room", room="string", date="string", guests="integer"),
]


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        (
            "modify_activity(old_name=Passeggiata, day=Lunedì, new_time=13:00, force=false)",
            [("modify_activity", {"old_name": "Passeggiata", "day": "Lunedì", "new_time": "13:00", "force": False})],
        ),
        (
            'book_room(room="B-12", date=2025-03-04, guests=3)',
            [("book_room", {"room": "B-12", "date": "2025-03-04", "guests": 3})],
        ),
        ("book_room(room=Sala Azul, date=04/03/2025)", [("book_room", {"room": "Sala Azul", "date": "04/03/2025"})]),
    ],
)
def test_bare_words_of_string_keys_are_their_text(text: str, calls: list[tuple[str, dict[str, Any]]]) -> None:
    check(Real(f"written after {SOURCE}", text, calls, tools=TOOLS))


@pytest.mark.parametrize(
    "text",
    [
        "modify_activity(old_name=Passeggiata, count=12:30)",
        "modify_activity(old_name=Passeggiata, when=13:00)",
        "You could run modify_activity(old_name=x, new_time=13:00) later.",
        "Reservo.\nbook_room(room=Sala Azul, date=04/03/2025)",
        "book_room(room=B 12 + 3, date=2025-03-04)",
    ],
)
def test_other_bare_words_stay_text(text: str) -> None:
    result = parse_everywhere(text, TOOLS, every_split=True, seeds=4)
    assert result["calls"] == [] and result["errors"] == [] and result["text"] == text
