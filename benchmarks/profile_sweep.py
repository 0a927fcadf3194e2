"""Every model profile against every real output: each must read the calls the default parser table reads.

The test suite (`tests/test_profiles.py`) checks a fixed sample of the outputs (every family's first, one in four
of the rest), each with the default table and one profile; this is the whole sweep (sixteen profiles times the corpus:
minutes, too long for the suite on a busy machine).
Run it before landing a change to the parser's tables or to the profiles:

    python benchmarks/profile_sweep.py      # exits 1 and lists (profile, output) pairs that read differently
"""

from __future__ import annotations

import sys
from typing import Any

from shim.bench.real import load_real
from shim.events import ParseIssue, ToolCallEnd
from shim.parsing.stream import StreamParser
from shim.profiles import PROFILES


def _read(text: str, parser: StreamParser) -> tuple[list[tuple[str, Any]], int]:
    events = parser.feed(text) + parser.close()
    calls = [(e.name, e.arguments) for e in events if isinstance(e, ToolCallEnd)]
    return calls, sum(isinstance(e, ParseIssue) for e in events)


def main() -> int:
    cases = load_real()
    differ: list[tuple[str, str]] = []
    for case in cases:
        tools = list(case.tools) if case.tools else None
        expected = _read(case.text, StreamParser(tools))
        differ += [(p.name, case.id) for p in PROFILES if _read(case.text, p.parser(tools)) != expected]
    print(
        f"{len(cases)} real outputs x {len(PROFILES)} profiles: {len(differ)} read differently from the default table"
    )
    for name, case_id in differ:
        print(f"  {name}: {case_id}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
