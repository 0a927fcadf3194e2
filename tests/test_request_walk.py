"""A Chat Completions request walks straight: measured from the code by ``benchmarks/request_walk.py`` (a real
request through the ASGI app to a scripted model, every call watched), it climbs back up a floor at most 8 times,
no module is visited afresh from more than two packages, and no package is entered from more than two others.

These are counts of the code's structure (which module calls which), not times: the same code gives the same
numbers on a busy machine.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.helpers.scripts import load_script

WALK = Path(__file__).resolve().parents[1] / "benchmarks" / "request_walk.py"


def _load() -> ModuleType:
    return load_script(WALK, "_request_walk")


@pytest.fixture(scope="module")
def walk() -> dict[str, Any]:
    return _load().measure()


def test_the_request_climbs_back_up_a_floor_at_most_eight_times(walk: dict[str, Any]) -> None:
    assert walk["climbs"] <= 8, walk["climb_steps"]


def test_no_module_is_visited_afresh_from_more_than_two_packages(walk: dict[str, Any]) -> None:
    assert walk["visited_from_more_than_two"] == {}


def test_no_package_is_entered_from_more_than_two_other_packages(walk: dict[str, Any]) -> None:
    assert walk["entered_from_more_than_two"] == {}


def test_the_walk_passes_through_the_loop_the_parser_and_the_prompt(walk: dict[str, Any]) -> None:
    """The measure sees the whole request, the work done on worker threads included (rendering the prompt and
    building the parser run there): a walk that missed them would pass the bounds by seeing less."""
    steps = "\n".join(walk["walk"])
    for step in (
        "shim.server.chat -> shim.agent ",
        "shim.agent -> shim.prompting.conversation ",
        "shim.profiles.data -> shim.parsing.stream ",
        "shim.agent -> shim.backends.base ",
    ):
        assert step in steps
