"""The walk of one Chat Completions request through shim's modules, measured from a real request.

A request goes through the real ASGI app (`shim.server.create_app`, driven with a bare ASGI call: no client
library's frames) to a scripted model (`shim.backends.scripted.ScriptedBackend`, the reply in one piece) that
answers with one call of the client's tool. Every Python call is watched with `sys.setprofile` (and
`threading.setprofile`, so the work the server runs on worker threads, rendering the prompt and building the
parser, is watched too: a worker thread's stack starts at the work it was handed); a call into
shim code whose nearest shim caller lies in another module is a *step* from the caller's module to the
callee's. Calls inside one module, generated dataclass methods and lambdas are not steps, nor are calls into
floor 0 (data types, errors, ids, redaction, schema checks: leaves that return at once). The floors are those
of ``tests/test_architecture.py``.

- ``steps``: the distinct module -> module steps (a loop over chunks or events repeats the same steps: once);
- ``modules``: the modules the request passed through;
- ``climbs``: steps that go up a floor (a lower module calling back into a higher one, through a callback or
  an object it was handed);
- ``entries``: per package, how many other packages step into it (``agent_types`` counts as the agent);
- ``visits``: per module, from how many packages the walk *visits* it. A visit opens when a call enters the
  module while none of its frames is running (read from the stack at the call); a call back into a module that
  is still running (a reader reporting to the parser core that called it, a backend's stream calling a helper
  of the backend seam that started it) is part of the visit in progress. A loop over chunks or events repeats
  the same step, so it counts once; and the modules of one package count as one place (five readers sharing
  one helper module are one visitor, the parser package). ``visits`` 2 means the module is entered afresh from
  two places in the design, however many chunks pass; ``--walk`` also lists how many *modules* open visits.

The walk is straight when it climbs at most 8 times, no module is visited from more than two packages, and no
package is entered from more than two others. ``tests/test_request_walk.py`` asserts those three bounds (counts
of the code's structure, not times).

    python benchmarks/request_walk.py            # the numbers, and whatever breaks the bounds
    python benchmarks/request_walk.py --walk     # and every step, in the order first taken, with its count
    python benchmarks/request_walk.py --json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[1]
SHIM = ROOT / "shim"

REPLY = 'Let me look. <function_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</function_call>'
BODY = {
    "model": "m",
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather in a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            },
        }
    ],
}


def _floors() -> Any:
    spec = importlib.util.spec_from_file_location("_architecture", ROOT / "tests" / "test_architecture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


FLOORS = _floors()


def _module(frame: FrameType | None) -> str | None:
    """The shim module a frame runs in, or None outside shim (and for generated code)."""
    if frame is None:
        return None
    name = frame.f_code.co_filename
    if not name.startswith(str(SHIM)) or frame.f_code.co_name in ("<lambda>", "<genexpr>"):
        return None
    parts = list(Path(name).relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class Walk:
    """Records the module -> module steps of everything that runs while it is installed: a call into shim code
    whose nearest shim caller is in another module."""

    def __init__(self) -> None:
        self.steps: dict[tuple[str, str], int] = {}  # first-seen order, and how often each step was taken
        self.opens: set[tuple[str, str]] = set()  # the steps that opened a visit (see ``visits``)

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        del arg
        if event != "call":
            return
        callee = _module(frame)
        if callee is None:
            return
        caller_frame = frame.f_back
        while caller_frame is not None and _module(caller_frame) is None:
            caller_frame = caller_frame.f_back
        caller = _module(caller_frame)
        if caller is not None and caller != callee:
            self.steps[(caller, callee)] = self.steps.get((caller, callee), 0) + 1
            if not _running(caller_frame, callee):
                self.opens.add((caller, callee))


def _running(frame: FrameType | None, module: str) -> bool:
    """Whether a frame of ``module`` is on the stack from ``frame`` down."""
    while frame is not None:
        if _module(frame) == module:
            return True
        frame = frame.f_back
    return False


async def _request(app: Any) -> tuple[int, bytes]:
    body = json.dumps(BODY).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/chat/completions",
        "raw_path": b"/v1/chat/completions",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8080),
    }
    sent = False
    status = 0
    out: list[bytes] = []
    done = anyio.Event()

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            out.append(message.get("body", b""))
            if not message.get("more_body", False):
                done.set()

    await app(scope, receive, send)
    return status, b"".join(out)


def measure() -> dict[str, Any]:
    from shim.backends.scripted import ScriptedBackend
    from shim.server import create_app

    app = create_app({"m": ScriptedBackend([REPLY, REPLY], chunk_size=None)})
    anyio.run(_request, app)  # once unwatched: imports and caches are not part of the walk
    walk = Walk()
    threading.setprofile(walk)  # the worker threads this run starts (each event loop starts its own)
    sys.setprofile(walk)
    try:
        status, body = anyio.run(_request, app)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]  # None unsets it, as for sys.setprofile
    answer = json.loads(body)
    assert status == 200 and answer["choices"][0]["finish_reason"] == "tool_calls", (status, body[:300])
    steps = [(a, b) for a, b in walk.steps if FLOORS.floor_of(b) != 0]  # a leaf (floor 0) returns at once
    climbs = [(a, b) for a, b in steps if FLOORS.floor_of(b) > FLOORS.floor_of(a)]
    entered: dict[str, set[str]] = {}
    visitors: dict[str, set[str]] = {}
    for caller, callee in steps:
        if _package(caller) != _package(callee):
            entered.setdefault(_package(callee), set()).add(_package(caller))
        if (caller, callee) in walk.opens:
            visitors.setdefault(callee, set()).add(caller)
    visits = {m: {_package(c) for c in callers} for m, callers in visitors.items()}
    return {
        "steps": len(steps),
        "modules": len({m for step in steps for m in step}),
        "climbs": len(climbs),
        "most_entries": max(len(c) for c in entered.values()),
        "most_visits": max(len(c) for c in visits.values()),
        "entered_from_more_than_two": {p: sorted(c) for p, c in entered.items() if len(c) > 2},
        "visited_from_more_than_two": {m: sorted(c) for m, c in visits.items() if len(c) > 2},
        "visits": {m: (len(visits[m]), len(visitors[m])) for m in sorted(visits, key=lambda m: (-len(visits[m]), m))},
        "climb_steps": [f"{a} -> {b}" for a, b in climbs],
        "walk": [
            f"{a} -> {b} ({walk.steps[a, b]}x){'' if (a, b) in walk.opens else ', back into a running module'}"
            for a, b in steps
        ],
    }


def _package(module: str) -> str:
    """The package a module belongs to (``shim.parsing.readers.base`` -> ``shim.parsing``); the agent's helper
    module counts as the agent."""
    name = ".".join(module.split(".")[:2])
    return "shim.agent" if name == "shim.agent_types" else name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--walk", action="store_true", help="print every step, in the order first taken")
    args = parser.parse_args()
    result = measure()
    if args.json:
        print(json.dumps({k: v for k, v in result.items() if k not in ("walk", "visits")}, indent=2))
        return
    print(
        f"steps {result['steps']}, modules {result['modules']}, climbs {result['climbs']}, "
        f"most packages visiting one module {result['most_visits']}, "
        f"most packages stepping into one package {result['most_entries']}"
    )
    for module, callers in result["visited_from_more_than_two"].items():
        print(f"  {module} is visited from {len(callers)} packages: {', '.join(callers)}")
    for package, callers in result["entered_from_more_than_two"].items():
        print(f"  {package} is entered from {len(callers)} packages: {', '.join(callers)}")
    for step in result["climb_steps"]:
        print(f"  climb: {step}")
    if args.walk:
        for step in result["walk"]:
            print(f"  {step}")
        print("visits per module (packages, modules):")
        for module, (packages, modules) in result["visits"].items():
            print(f"  {module} {packages}, {modules}")


if __name__ == "__main__":
    main()
