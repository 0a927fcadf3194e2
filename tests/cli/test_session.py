"""The CLI's approval prompt: shown tool, server and arguments; yes / no / always for this tool / abort."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console

from shim.cli.session import Approvals
from shim.types import ToolCall, ToolSpec

pytestmark = pytest.mark.anyio

CALL = ToolCall(id="call_" + "a" * 24, name="delete_file", arguments={"path": "notes.txt"})
SPEC = ToolSpec(name="delete_file")


def approvals(answers: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Approvals, io.StringIO]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    shown = io.StringIO()
    return Approvals(Console(file=shown, width=200), server_of=lambda name: "files"), shown


async def test_the_prompt_shows_tool_server_and_arguments_and_yes_allows_once(monkeypatch: pytest.MonkeyPatch) -> None:
    gate, shown = approvals("y\nn\n", monkeypatch)
    assert await gate(CALL, SPEC) is True
    assert "delete_file" in shown.getvalue() and "files" in shown.getvalue() and "notes.txt" in shown.getvalue()
    assert await gate(CALL, SPEC) is False  # asked again: "yes" was for that call only


async def test_always_approves_the_tool_from_then_on_without_asking(monkeypatch: pytest.MonkeyPatch) -> None:
    gate, _ = approvals("a\n", monkeypatch)
    assert await gate(CALL, SPEC) is True
    assert await gate(CALL, SPEC) is True  # nothing left to read: it did not ask
    assert gate.always == {"delete_file"}


async def test_abort_refuses_and_marks_the_run_aborted(monkeypatch: pytest.MonkeyPatch) -> None:
    gate, _ = approvals("b\n", monkeypatch)
    assert await gate(CALL, SPEC) is False
    assert gate.aborted
    assert await gate(CALL, SPEC) is False  # every later call is refused without asking


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
