"""The walk of one Chat Completions request through shim's modules, measured from a real request.

A request goes through the real ASGI app (`shim.server.create_app`, driven with a bare ASGI call: no client
library's frames) to a scripted model (`shim.backends.scripted.ScriptedBackend`, the reply in one piece) that
answers with one call of the client's tool. Every Python call is watched with `sys.setprofile`; a call into
shim code whose nearest shim caller lies in another module is a *step* of the walk from the caller's module
to the callee's. Calls inside one module, generated dataclass methods and lambdas are not steps.

What is counted (the floors are those of ``tests/test_architecture.py``):

- ``steps``: the distinct module -> module steps (a loop over chunks repeats the same steps: counted once);
- ``modules``: the modules the request passed through;
- ``climbs``: steps that go up a floor (a lower module calling back into a higher one, through a callback or
  an object it was handed);
- ``visits``: per module, the number of distinct modules that stepped into it; the walk is straight when
  every module is entered from at most two places.

    python benchmarks/request_walk.py            # the numbers, then every step and climb
    python benchmarks/request_walk.py --json     # the numbers as JSON
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import Counter
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
    spec.loader.exec_module(module)
    return module


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
    """Records the module -> module steps of everything that runs while it is installed."""

    def __init__(self) -> None:
        self.steps: dict[tuple[str, str], int] = {}  # first-seen order, and how often each step was taken

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
        caller = _module(caller_frame) or "(asgi)"
        if caller != callee:
            self.steps[(caller, callee)] = self.steps.get((caller, callee), 0) + 1


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

    architecture = _floors()
    app = create_app({"m": ScriptedBackend([REPLY, REPLY], chunk_size=None)})
    anyio.run(_request, app)  # once unwatched: imports and caches are not part of the walk
    walk = Walk()
    sys.setprofile(walk)
    try:
        status, body = anyio.run(_request, app)
    finally:
        sys.setprofile(None)
    answer = json.loads(body)
    assert status == 200 and answer["choices"][0]["finish_reason"] == "tool_calls", (status, body[:300])
    steps = list(walk.steps)
    inner = [(a, b) for a, b in steps if a != "(asgi)"]
    climbs = [(a, b) for a, b in inner if architecture.floor_of(b) > architecture.floor_of(a)]
    visits = Counter(b for _, b in steps)
    modules = sorted({m for step in steps for m in step} - {"(asgi)"})
    return {
        "steps": len(steps),
        "modules": len(modules),
        "climbs": len(climbs),
        "most_visits": max(visits.values()),
        "revisited": {m: n for m, n in visits.most_common() if n > 2},
        "walk": [f"{a} -> {b}" for a, b in steps],
        "climb_steps": [f"{a} -> {b}" for a, b in climbs],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    result = measure()
    if args.json:
        print(json.dumps({k: v for k, v in result.items() if k not in ("walk", "climb_steps")}, indent=2))
        return
    print(
        f"steps {result['steps']}, modules {result['modules']}, climbs {result['climbs']}, "
        f"most visits of one module {result['most_visits']}"
    )
    print("revisited (entered from more than two modules):", result["revisited"] or "none")
    print("\nwalk:")
    for step in result["walk"]:
        print("  " + step)
    print("\nclimbs:")
    for step in result["climb_steps"]:
        print("  " + step)


if __name__ == "__main__":
    main()
