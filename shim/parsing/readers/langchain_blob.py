"""LangChain's JSON agent blob in a fence: ```` ```\\n{"action": NAME, "action_input": …}\\n``` ````.

Untagged, so it needs the evidence: the fence must open with ``{"action":``, the object may hold only
``action`` and ``action_input`` (or one synonym of it: ``input``, ``arguments``…), and ``action`` must name an
offered tool. The input is read as for ReAct
(`react.input_arguments`): an object, or a string for the tool's one parameter. Listed before the generic
```` ```json ```` row, which reads every other fenced call; a fenced object this row opened that is no LangChain blob
(another agent's flat action, ``{"action": NAME, "path": "."}``) is read by the same shape rules as that row's.
"""

from __future__ import annotations

from typing import Any, cast

import regex

from shim.parsing.json_scan import Status
from shim.parsing.readers.base import MORE, Block, Context, Dialect, Next
from shim.parsing.readers.block_end import AfterBody
from shim.parsing.readers.react import input_arguments, lenient_loads
from shim.parsing.readers.untagged import JsonCandidate, calls_of

__all__ = ["ROWS", "ActionBlob"]

_INPUT_KEYS = frozenset({"action_input", "input", "tool_input", "arguments", "args", "parameters"})
"""The input's key: LangChain's ``action_input``, or the synonym another agent's prompt asks for (Dify: ``input``)."""
_BLOB = r'```(?:json)?[ \t]{0,8}\r?\n[ \t\r\n]{0,64}(?P<body>\{[ \t\r\n]{0,64}"action"[ \t\r\n]{0,8}:)'


class ActionBlob:
    """``{"action": NAME, "action_input": …}`` in a fence (LangChain's JSON agent)."""

    def __init__(self, ctx: Context, block: Block, opener: str) -> None:
        self.ctx = ctx
        self.block = block
        block.fence = True
        self.json = JsonCandidate(ctx, opener)

    def feed(self, text: str, pos: int, final: bool) -> tuple[int, Next]:
        new, status = self.json.scan(text, pos, final)
        if status is not Status.DONE:
            return new, (MORE if status is Status.MORE else None)
        value: Any = lenient_loads(self.json.text())
        blob: dict[str, Any] = cast("dict[str, Any]", value) if isinstance(value, dict) else {}
        inputs = set(blob) & _INPUT_KEYS
        if blob and len(inputs) <= 1 and set(blob) <= {"action"} | _INPUT_KEYS:
            name = blob.get("action")
            if isinstance(name, str) and self.ctx.tools.is_known(name):
                arguments = input_arguments(self.ctx.tools, name, blob.get(next(iter(inputs), "action_input")))
                if arguments is not None:
                    self.ctx.end_call(name, arguments, streamed=False)
                    return new, AfterBody(self.ctx, self.block)
        # Another agent's flat action object (``{"action": NAME, "path": "."}``, the arguments beside the name): the
        # call the generic fenced row would read, had this row not taken the fence.
        shapes = calls_of(self.json.text(), self.ctx)
        if len(shapes) == 1:
            self.ctx.end_call(shapes[0].name, shapes[0].arguments, streamed=False)
            return new, AfterBody(self.ctx, self.block)
        self.ctx.revert()
        return new, None

    def finish(self, truncated: bool) -> None:
        self.ctx.revert()


def _open_blob(ctx: Context, block: Block, match: regex.Match[str]) -> ActionBlob:
    return ActionBlob(ctx, block, match.group("body"))


ROWS = [
    # ```\n{"action": NAME, "action_input": …}\n``` (LangChain's JSON blob): listed before the generic ```json row.
    Dialect("react_json_blob", _BLOB, r"```", kind="untagged", first="`", reader=_open_blob)
]
