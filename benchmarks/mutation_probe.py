"""Mutate every real output that reads right today the way other models' outputs differ, and count what breaks.

The real track checks what models wrote; hidden outputs differ from them in their surroundings: prose before the
call, an end-of-turn token after it, a reasoning block, CRLF line endings, other tool names, stray whitespace, the
same call printed twice. Each mutation here has a result derivable from the sidecar (the expected calls, visible
text and reasoning change in a known way), so a case that read right and reads differently once mutated shows a
rule that depends on something it should not. Run it before landing a reader or core change:

    python benchmarks/mutation_probe.py            # per mutation: cases, still right, changed, families hit
    python benchmarks/mutation_probe.py -v         # and every changed case (mutation, case id)

Prints counts only (no time assertions); ``tests/bench/test_mutation_probe.py`` runs it over a fixed sample.

A mutation is *not applied* (counted apart, never as a change) where its result is not derivable, by design:

- ``prose_before`` / ``reasoning_before`` / ``doubled`` on an output that starts inside reasoning (its profile's
  ``starts_in_reasoning``): the text before the first closer is reasoning, so the prefix would join it or open
  a block inside a block, which no model prints;
- ``prose_before`` on an output that opens with a form the table reads only where a message begins (a row with
  ``start="message"``: a bare JSON object or list, a pythonic list, a name line then arguments, a stripped
  channel header, a sequence's edge token): after a sentence the same characters are a sample in prose, which
  is what keeps the decoys at no call; the rule is the table's, so the mutation does not apply;
- ``rename_*`` where a call's name is not spelled verbatim in the text (the reader matched a near spelling or
  derived the name from the form, e.g. a ``bash`` fence), where a tool's name is also a word of the format's
  markup (the fence language, a label), or where a tool's name is inside an argument's value (``bash
  hello.sh``; a JSON string may spell it after an escape, ``\\nwrite_file``): a consistent rename then rewrites
  markup or data, not just a name;
- ``doubled`` where the output is not exactly one call, or it ends inside its call (no closer: the second copy
  would be the first one's argument), or after an end-of-turn token (the engine stops there, nothing follows);
- ``end_token`` where the output already ends with an end-of-turn token or runs past one (what follows a turn's
  end is already the family's business), or where it is a transcript (another role's turn in the text,
  `shim.parsing.readers.prose.TRANSCRIPT`: a rendered prompt or a chat shown whole, where every template token
  is the document's, so an appended one cannot be told from the document's own and stays text);

Everything else that changes is counted and listed: it is either a rule to write or an exclusion to add here with
its reason.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from shim.bench.corpus import Case
from shim.bench.metrics import canonical, fold_ws
from shim.bench.mutations import Call
from shim.bench.real import load_real
from shim.events import ParseResult
from shim.parsing.readers import rows_for
from shim.parsing.readers.prose import TRANSCRIPT
from shim.parsing.shapes import ToolIndex
from shim.parsing.stream import StreamParser

PROSE = "Sure, let me check that.\n\n"
THINK = "<think>\nI should call the tool.\n</think>\n\n"
THOUGHT = "I should call the tool."
END_TOKENS = ("<|im_end|>", "<|eot_id|>", "</s>", "<end_of_turn>", "<|end|>")
_END_TAIL = re.compile(r"(<\|[a-z_]+\|>|</s>|<end_of_turn>|<eos>|\[/?[A-Z_]+\])\s*$")
RENAMES: dict[str, Callable[[int], str]] = {
    "rename_v2": lambda i: "lookup_forecast_v2" if i == 0 else f"lookup_forecast_v{i + 2}",
    "rename_hyphen": lambda i: "lookup-forecast" if i == 0 else f"lookup-forecast-{i + 1}",
    "rename_dotted": lambda i: "weather.lookup" if i == 0 else f"weather.lookup{i + 1}",
}


@dataclass(frozen=True, kw_only=True)
class Read:
    """What a parser made of one text: calls as comparable keys, visible text and reasoning (folded), lossless."""

    calls: tuple[tuple[str, str], ...]
    visible: str
    reasoning: str
    lossless: bool


@dataclass(frozen=True, kw_only=True)
class Mutant:
    """One mutated case and what it must read as."""

    text: str
    tools: tuple[dict[str, Any], ...]
    expected: Read


def read(text: str, tools: Sequence[dict[str, Any]], *, in_reasoning: bool, crlf: bool = False) -> Read:
    """Parse ``text`` whole; with ``crlf``, argument strings are compared with ``\\r\\n`` read as ``\\n``."""
    parser = StreamParser(list(tools), in_reasoning=in_reasoning)
    events = parser.feed(text) + parser.close()
    result = ParseResult.from_events(events)
    raw = "".join(getattr(e, "raw", "") or "" for e in events)
    return Read(
        calls=tuple(canonical(c.name, _crlf(c.arguments) if crlf else c.arguments) for c in result.calls),
        visible=fold_ws(result.text),
        reasoning=fold_ws(result.reasoning),
        lossless=raw == text,
    )


def same(got: Read, want: Read) -> bool:
    """Equal calls, visible text and losslessness; reasoning compared without its whitespace (two blocks' texts
    are joined as written, with no separator)."""
    return (got.calls, got.visible, got.lossless) == (want.calls, want.visible, want.lossless) and "".join(
        got.reasoning.split()
    ) == "".join(want.reasoning.split())


def _crlf(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\r\n", "\n")
    if isinstance(value, dict):
        return {_crlf(k): _crlf(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, list):
        return [_crlf(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    return value


def _expected(case: Case, reasoning: str, calls: Iterable[Call] | None = None) -> Read:
    return Read(
        calls=tuple(canonical(c.name, c.arguments) for c in (case.calls if calls is None else calls)),
        visible=fold_ws(case.visible),
        reasoning=fold_ws(reasoning),
        lossless=True,
    )


def passes(case: Case) -> tuple[bool, str]:
    """Whether the case reads right whole today (calls, visible, lossless), and the reasoning it reads."""
    got = read(case.text, case.tools or (), in_reasoning=case.starts_in_reasoning)
    want = _expected(case, got.reasoning)
    return same(got, want), got.reasoning


# --- the mutations: each returns None where its result is not derivable (see the module docstring) -------------


def _opens_message_only(case: Case) -> bool:
    # The first non-blank characters open a row the table tries only where the message begins.
    pos = len(case.text) - len(case.text.lstrip())
    rows = rows_for(None, ToolIndex(list(case.tools or ())))
    starts = [r for r in rows if r.start == "message" and r.kind in ("untagged", "markup")]
    return any(r.compiled_open().match(case.text, pos) is not None for r in starts)


def prose_before(case: Case, reasoning: str) -> Mutant | None:
    if case.starts_in_reasoning or _opens_message_only(case):
        return None
    want = _expected(case, reasoning)
    return Mutant(
        text=PROSE + case.text,
        tools=case.tools or (),
        expected=replace(want, visible=fold_ws(PROSE + case.visible)),
    )


def _ends_turn(text: str) -> bool:
    return bool(_END_TAIL.search(text))


def end_token(token: str) -> Callable[[Case, str], Mutant | None]:
    def mutate(case: Case, reasoning: str) -> Mutant | None:
        if _ends_turn(case.text) or TRANSCRIPT.search("\n" + case.text) is not None:
            return None
        return Mutant(text=case.text + token, tools=case.tools or (), expected=_expected(case, reasoning))

    return mutate


def reasoning_before(case: Case, reasoning: str) -> Mutant | None:
    if case.starts_in_reasoning:
        return None
    return Mutant(
        text=THINK + case.text,
        tools=case.tools or (),
        expected=_expected(case, f"{THOUGHT} {reasoning}"),
    )


def crlf(case: Case, reasoning: str) -> Mutant | None:
    text = case.text.replace("\r\n", "\n").replace("\n", "\r\n")
    if text == case.text:
        return None
    calls = [Call(name=c.name, arguments=_crlf(c.arguments)) for c in case.calls]
    return Mutant(text=text, tools=case.tools or (), expected=_expected(case, reasoning, calls))


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w\-]){re.escape(name)}(?![\w\-]|\.\w)")


def _markup_word(name: str, text: str) -> bool:
    # The name is also the format's own word: a fence's language (```bash), an XML element or a label line.
    n = re.escape(name)
    return bool(re.search(rf"```{n}\b|<{n}[\s>/]|</{n}>|^\s*{n}\s*:|\[{n}\]", text, re.MULTILINE | re.IGNORECASE))


def rename(new_name: Callable[[int], str]) -> Callable[[Case, str], Mutant | None]:
    def mutate(case: Case, reasoning: str) -> Mutant | None:
        tools = case.tools or ()
        names = [str(t["name"]) for t in tools]
        mapping = {n: new_name(i) for i, n in enumerate(names)}
        # Longest first, one pass: a name that contains another is replaced whole.
        pattern = re.compile(
            "|".join(rf"(?<![\w\-]){re.escape(n)}(?![\w\-]|\.\w)" for n in sorted(names, key=len, reverse=True))
        )
        if not names or any(not _word(c.name).search(case.text) for c in case.calls):
            return None
        if any(_markup_word(n, case.text) for n in names):
            return None
        if any(_word(n).search(json.dumps(c.arguments)) for c in case.calls for n in names):
            return None  # a name inside a value: the text may spell it escaped (``\\nNAME``), not derivable

        def sub(value: Any) -> Any:
            if isinstance(value, str):
                return pattern.sub(lambda m: mapping[m.group(0)], value)
            if isinstance(value, dict):
                return {sub(k): sub(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
            if isinstance(value, list):
                return [sub(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
            return value

        calls = [Call(name=mapping[c.name], arguments=sub(c.arguments)) for c in case.calls]
        renamed = replace(case, visible=sub(case.visible))
        return Mutant(
            text=sub(case.text),
            tools=tuple({**t, "name": mapping[str(t["name"])]} for t in tools),
            expected=_expected(renamed, sub(reasoning), calls),
        )

    return mutate


def padded(case: Case, reasoning: str) -> Mutant | None:
    return Mutant(text="\n\n  " + case.text + "  \n\n", tools=case.tools or (), expected=_expected(case, reasoning))


def doubled(case: Case, reasoning: str) -> Mutant | None:
    if case.starts_in_reasoning or len(case.calls) != 1 or _ends_turn(case.text):
        return None
    return Mutant(
        text=case.text + "\n\n" + case.text,
        tools=case.tools or (),
        expected=replace(
            _expected(case, f"{reasoning} {reasoning}", [*case.calls, *case.calls]),
            visible=fold_ws(f"{case.visible} {case.visible}"),
        ),
    )


MUTATIONS: dict[str, Callable[[Case, str], Mutant | None]] = {
    "prose_before": prose_before,
    **{f"end_token {t}": end_token(t) for t in END_TOKENS},
    "reasoning_before": reasoning_before,
    "crlf": crlf,
    **{k: rename(f) for k, f in RENAMES.items()},
    "padded": padded,
    "doubled": doubled,
}
"""Every mutation by name, in report order."""


@dataclass(kw_only=True)
class Tally:
    """One mutation's counts."""

    cases: int = 0
    right: int = 0
    skipped: int = 0
    changed: list[str] = field(default_factory=list[str])


def _ends_inside_call(case: Case) -> bool:
    # A sentence after the output: if it does not stay visible text after the same call, the call was still open
    # where the output ended (no closer), and a second copy would be read as part of it.
    got = read(case.text + "\n\nDone.", case.tools or (), in_reasoning=case.starts_in_reasoning)
    expected = _expected(case, "")
    return got.calls != expected.calls or not got.visible.endswith("Done.")


def probe(cases: Iterable[Case], *, only: Sequence[str] = ()) -> dict[str, Tally]:
    """Run every mutation over every case that reads right today; per mutation, the tally."""
    tallies = {name: Tally() for name in MUTATIONS if not only or name in only}
    for case in cases:
        ok, reasoning = passes(case)
        if not ok:
            continue
        for name, tally in tallies.items():
            mutant = MUTATIONS[name](case, reasoning)
            if mutant is not None and name == "doubled" and _ends_inside_call(case):
                mutant = None
            if mutant is None:
                tally.skipped += 1
                continue
            tally.cases += 1
            crlf_args = name == "crlf"
            got = read(mutant.text, mutant.tools, in_reasoning=case.starts_in_reasoning, crlf=crlf_args)
            if same(got, mutant.expected):
                tally.right += 1
            else:
                tally.changed.append(case.id)
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("-v", "--verbose", action="store_true", help="list every changed case")
    ap.add_argument("--only", default="", help="comma-separated mutation names")
    ap.add_argument("--family", default="", help="comma-separated families (default: all)")
    args = ap.parse_args(argv)
    cases = load_real()
    if args.family:
        keep = set(args.family.split(","))
        cases = [c for c in cases if c.category in keep]
    tallies = probe(cases, only=[x for x in args.only.split(",") if x])
    print(f"{'mutation':24} {'cases':>6} {'right':>6} {'changed':>8} {'n/a':>6}  families most affected")
    for name, t in tallies.items():
        changed = t.changed
        fams = Counter(c.split(":")[1].split("/")[0] for c in changed).most_common(5)
        print(
            f"{name:24} {t.cases:6} {t.right:6} {len(changed):8} {t.skipped:6}  "
            + ", ".join(f"{f} {n}" for f, n in fams)
        )
    if args.verbose:
        for name, t in tallies.items():
            for case_id in t.changed:
                print(f"  {name}: {case_id}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
