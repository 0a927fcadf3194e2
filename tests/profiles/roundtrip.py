"""The template round trip: real chat templates render calls, and the parser reads them back.

For each template: `shim.profiles.from_template` derives its profile; the template renders an assistant reply
making the calls of each `CASES` entry; the reply's text (after the generation prompt, up to the end of the
turn) is fed to `StreamParser(TOOLS, profile=profile)` in chunks of 1, 4, 16 and random sizes and whole; a
case passes when every chunking gives back exactly the calls, and the events' raw text is the input.

Run as a script (``python tests/profiles/roundtrip.py``) to print each template's result.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shim import StreamParser
from shim.events import ToolCallEnd
from shim.profiles import ModelProfile
from shim.profiles.template import from_template, probe_template

HERE = Path(__file__).parent / "templates"
TEMPLATE_FILES = sorted([*HERE.glob("*.jinja"), *HERE.glob("*/*.jinja")])

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather for a city",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer"},
                    "options": {"type": "object"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "verbose": {"type": "boolean"},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search_files",
            "description": "Find files",
            "parameters": {
                "type": "object",
                "properties": {"pattern": {"type": "string"}, "paths": {"type": "array"}},
                "required": ["pattern"],
            },
        },
    },
]

Call = tuple[str, dict[str, Any]]

CASES: dict[str, list[Call]] = {
    "one call": [("get_weather", {"city": "Paris", "days": 3})],
    "values": [
        (
            "get_weather",
            {
                "city": 'São Paulo "centro" C:\\temp\nline two ✓',
                "days": 5,
                "options": {"units": "metric", "nested": {"deep": [1, 2.5, None]}, "say": "it's"},
                "tags": ["a", "b c", "ü"],
                "verbose": True,
            },
        )
    ],
    "two calls": [
        ("get_weather", {"city": "Lima"}),
        ("search_files", {"pattern": "*.py", "paths": ["src", "tests"]}),
    ],
}


@dataclass
class Result:
    template: str
    error: str | None = None
    """Why the template could not be probed (it renders no call): not counted as a case."""
    failures: dict[str, str] = field(default_factory=dict)
    cannot: dict[str, str] = field(default_factory=dict)
    """Cases the template cannot write (one call per turn only): not counted."""
    passed: list[str] = field(default_factory=list)


def chunkings(text: str) -> dict[str, list[str]]:
    rng = random.Random(len(text))
    cuts: list[str] = []
    at = 0
    while at < len(text):
        step = rng.randint(1, 12)
        cuts.append(text[at : at + step])
        at += step
    sized = {f"size {n}": [text[i : i + n] for i in range(0, len(text), n)] for n in (1, 4, 16)}
    return {**sized, "whole": [text], "random": cuts}


def read(profile: ModelProfile, pieces: list[str]) -> tuple[list[Call], str]:
    parser = StreamParser(TOOLS, profile=profile)
    events = [e for piece in pieces for e in parser.feed(piece)] + parser.close()
    calls = [(e.name, e.arguments) for e in events if isinstance(e, ToolCallEnd)]
    return calls, "".join(e.raw for e in events)


def assistant_text(template: str, profile: ModelProfile, calls: list[Call]) -> str:
    """What the model writes for ``calls``, as the template renders it (with the tools of this test)."""
    probe = probe_template(template, tools=TOOLS)
    text = probe.assistant_part(calls)
    thinking = profile.thinking
    if profile.starts_in_reasoning and thinking is not None and thinking[1] not in text:
        text = f"Checking.{thinking[1]}\n{text}"  # the prompt opened reasoning: the reply closes it first
    return text


def check(path: Path) -> Result:
    template = path.read_text(encoding="utf-8")
    result = Result(str(path.relative_to(HERE)))
    try:
        profile = from_template(template)
    except ValueError as exc:
        result.error = str(exc)
        return result
    for case, calls in CASES.items():
        try:
            text = assistant_text(template, profile, calls)
        except ValueError as exc:
            result.cannot[case] = str(exc)
            continue
        if not all(name in text for name, _ in calls):
            result.cannot[case] = "the template writes only the first call of a turn"
            continue
        problem = None
        for how, pieces in chunkings(text).items():
            got, raw = read(profile, pieces)
            if raw != text:
                problem = f"{how}: raw differs from the input"
            elif got != calls:
                problem = f"{how}: read {got!r} from {text[:300]!r}"
            if problem:
                break
        if problem:
            result.failures[case] = problem
        else:
            result.passed.append(case)
    return result


if __name__ == "__main__":
    passed = total = 0
    for file in TEMPLATE_FILES:
        res = check(file)
        if res.error:
            print(f"SKIP {res.template}: {res.error}")
            continue
        passed += len(res.passed)
        total += len(res.passed) + len(res.failures)
        for case, why in res.failures.items():
            print(f"FAIL {res.template} [{case}]: {why[:400]}")
    print(f"{passed}/{total} cases", file=sys.stderr)
