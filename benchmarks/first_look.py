"""Record a hunt's first look: score staged real outputs with the parser as it is, then move them into the corpus.

    python benchmarks/first_look.py --dry-run   # score benchmarks/real_incoming and print; write and move nothing
    python benchmarks/first_look.py             # score, write ``first_look`` into each sidecar, move into real/

A hunt stages its cases in ``benchmarks/real_incoming/<family>/<name>.txt`` + ``.json`` (the layout of
``benchmarks/real``, with ``hunt`` set and no ``first_look``), collected without running the parser on them. Run
this once, *before* any change made to the parser for those sources: each case is scored exactly as the real
track scores shim (``shim.bench.runner.run_accuracy`` under every chunker of ``make_chunkers``; a case counts only
if it holds under all of them), its ``first_look`` (``exact_calls``, ``all_checks``) is written into the sidecar,
and the pair moves to ``benchmarks/real/<family>/``; then the README's families table gets its counts rewritten
(``benchmarks/real_families.py``) and each new family is named for someone to describe. The first look can never
be recomputed, so the script refuses a case that already has one, or whose place in the corpus is taken, before it
scores or moves anything.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shim.bench.chunkers import Chunker, make_chunkers
from shim.bench.corpus import Case
from shim.bench.metrics import CellScore
from shim.bench.real import real_case, validate_real
from shim.bench.report import failure_entry
from shim.bench.runner import run_accuracy
from shim.bench.suite import select_parsers

HERE = Path(__file__).resolve().parent
INCOMING = HERE / "real_incoming"
REAL = HERE / "real"

_FIRST_LOOK = "first_look"
_HUNT = "hunt"


@dataclass(frozen=True, kw_only=True)
class Staged:
    """One staged output: its case (as the real track builds it), its files and its metadata."""

    case: Case
    text_path: Path
    sidecar: Path
    meta: dict[str, Any]

    @property
    def rel(self) -> str:
        return f"{self.case.category}/{self.case.operator}"


@dataclass(frozen=True, kw_only=True)
class Look:
    """What the parser read of one staged output, under every chunker."""

    exact_calls: bool
    all_checks: bool
    failure: dict[str, Any] | None
    """``shim.bench.report.failure_entry`` of its failing cells (None when every check held)."""


def _read_exact(path: Path) -> str:
    with path.open(encoding="utf-8", newline="") as f:  # keeps \r\n and a missing final newline as quoted
        return f.read()


def load_incoming(incoming: Path, real: Path) -> list[Staged]:
    """Every staged output, validated as ``load_real`` validates the corpus except that ``first_look`` is absent.

    Raises:
        ValueError: naming every problem of every case: a text without its sidecar, invalid metadata, no ``hunt``,
            a ``first_look`` already recorded, or a name already taken in ``real``.
    """
    staged: list[Staged] = []
    problems: list[str] = []
    for txt in sorted(incoming.glob("*/*.txt")):
        family = txt.parent.name
        rel = f"{family}/{txt.stem}"
        sidecar = txt.with_suffix(".json")
        if not sidecar.is_file():
            problems.append(f"{rel}: no sidecar {sidecar.name!r}")
            continue
        text = _read_exact(txt)
        try:
            meta = json.loads(sidecar.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            problems.append(f"{rel}: the sidecar is not JSON ({exc})")
            continue
        if not isinstance(meta, dict):
            problems.append(f"{rel}: the metadata is not a JSON object")
            continue
        mine: list[str] = []
        # validate_real demands a first_look of every hunt case; here it must not exist yet, so the hunt's own
        # checks are made below and the rest is validated exactly as the corpus is.
        mine += validate_real({k: v for k, v in meta.items() if k not in (_HUNT, _FIRST_LOOK)}, text, family=family)
        if not isinstance(meta.get(_HUNT), str) or not meta[_HUNT].strip():
            mine.append("a staged case needs the name of its hunt")
        if _FIRST_LOOK in meta:
            mine.append("first_look is already recorded (it is measured once, never again)")
        for taken in (real / family / txt.name, real / family / sidecar.name):
            if taken.exists():
                mine.append(f"{taken.relative_to(real).as_posix()} already exists in the corpus")
        if mine:
            problems += [f"{rel}: {p}" for p in mine]
            continue
        case = real_case(meta, text, family=family, name=txt.stem)
        staged.append(Staged(case=case, text_path=txt, sidecar=sidecar, meta=meta))
    orphans = sorted(j for j in incoming.glob("*/*.json") if not j.with_suffix(".txt").is_file())
    problems += [f"{j.parent.name}/{j.stem}: a sidecar without its text" for j in orphans]
    if problems:
        raise ValueError("staged outputs are not ready:\n" + "\n".join(f"  - {p}" for p in problems))
    return staged


def first_look(
    staged: Sequence[Staged], *, chunkers: Sequence[Chunker] | None = None, cell_limit_s: float = 20.0
) -> dict[str, Look]:
    """Per case id: shim's reading under every chunker, scored as the real track scores it."""
    cases = [s.case for s in staged]
    cells = run_accuracy(cases, select_parsers(["shim"]), chunkers or make_chunkers(), cell_limit_s=cell_limit_s)
    by_case: dict[str, list[CellScore]] = defaultdict(list)
    for cell in cells:
        by_case[cell.case_id].append(cell)
    looks: dict[str, Look] = {}
    for case in cases:
        mine = by_case[case.id]
        failing = [c for c in mine if not c.passed]
        looks[case.id] = Look(
            exact_calls=all(c.exact for c in mine),
            all_checks=not failing,
            failure=failure_entry(failing, case) if failing else None,
        )
    return looks


def _failure_class(look: Look) -> str:
    if not look.exact_calls:
        return "calls not read exactly"
    failed = [f for f in (look.failure or {}).get("failed", []) if f != "exact"]
    return "calls exact; failed " + ", ".join(failed)


def _call(name: str, arguments: str) -> str:
    return f"{name} {arguments}"


def report(staged: Sequence[Staged], looks: dict[str, Look]) -> str:
    """Per hunt: the first-look score, the README hunt-table row, and the failing cases grouped by class."""
    lines: list[str] = []
    hunts: dict[str, list[Staged]] = defaultdict(list)
    for s in staged:
        hunts[s.meta[_HUNT]].append(s)
    for hunt, mine in hunts.items():
        n = len(mine)
        exact = sum(looks[s.case.id].exact_calls for s in mine)
        passed = sum(looks[s.case.id].all_checks for s in mine)
        lines += [
            f"hunt: {hunt}",
            f"  outputs: {n}",
            f"  first look, exact calls: {exact}/{n} ({exact / n:.0%})",
            f"  first look, all checks:  {passed}/{n} ({passed / n:.0%})",
            f"  README row: | {hunt} | {n} | {exact}/{n} | {passed}/{n} | | |",
        ]
        classes: dict[str, list[Staged]] = defaultdict(list)
        for s in mine:
            look = looks[s.case.id]
            if not look.all_checks:
                classes[_failure_class(look)].append(s)
        if not classes:
            lines.append("  every output passed every check")
        for name, members in sorted(classes.items(), key=lambda kv: (not kv[0].startswith("calls not"), kv[0])):
            lines.append(f"  {name} ({len(members)}):")
            for s in members:
                failure = looks[s.case.id].failure or {}
                got: dict[str, Any] = failure.get("got") or {}
                lines.append(f"    - {s.rel} (chunkers: {', '.join(failure.get('chunkers', []))})")
                if not looks[s.case.id].exact_calls:
                    expected = [
                        _call(c["name"], json.dumps(c["arguments"], sort_keys=True, ensure_ascii=False))
                        for c in failure["expected"]["calls"]
                    ]
                    read = [_call(c["name"], c["arguments"]) for c in got.get("calls", [])]
                    lines.append(f"        expected: {'; '.join(expected) or '(no call)'}")
                    lines.append(f"        got:      {'; '.join(read) or '(no call)'}")
                else:
                    lines.append(f"        expected visible: {json.dumps(s.case.visible, ensure_ascii=False)[:200]}")
                    lines.append(f"        got text:         {json.dumps(got.get('text'), ensure_ascii=False)[:200]}")
    return "\n".join(lines)


def record(staged: Sequence[Staged], looks: dict[str, Look], real: Path) -> list[Path]:
    """Write ``first_look`` into each sidecar and move the pair into ``real``; return the new sidecars.

    Raises:
        ValueError: a case with its first look does not validate as a corpus case; checked for every case
            before the first one moves, so a refusal leaves everything staged.
    """
    metas: list[dict[str, Any]] = []
    problems: list[str] = []
    for s in staged:
        look = looks[s.case.id]
        meta = dict(s.meta)
        meta[_FIRST_LOOK] = {"exact_calls": look.exact_calls, "all_checks": look.all_checks}
        problems += [f"{s.rel}: {p}" for p in validate_real(meta, s.case.text, family=s.case.category)]
        metas.append(meta)
    if problems:
        raise ValueError("not recorded:\n" + "\n".join(f"  - {p}" for p in problems))
    moved: list[Path] = []
    for s, meta in zip(staged, metas, strict=True):
        family = real / s.case.category
        family.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(s.text_path, family / s.text_path.name)  # the bytes as staged
        sidecar_to = family / s.sidecar.name
        sidecar_to.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        s.text_path.unlink()
        s.sidecar.unlink()
        if not any(s.text_path.parent.iterdir()):
            s.text_path.parent.rmdir()
        moved.append(sidecar_to)
    return moved


def sync_families(real: Path) -> list[str]:
    """Rewrite the counts of ``real``'s README families table (``benchmarks/real_families.py``); return its problems.

    A corpus with no README (a temporary one) has no table to keep.
    """
    if not (real / "README.md").is_file():
        return []
    spec = importlib.util.spec_from_file_location("real_families", HERE / "real_families.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module.sync(real).problems


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dry-run", action="store_true", help="score and print; write and move nothing")
    ap.add_argument("--incoming", type=Path, default=INCOMING, help="staged cases (default benchmarks/real_incoming)")
    ap.add_argument("--real", type=Path, default=REAL, help="the corpus to move them into (default benchmarks/real)")
    args = ap.parse_args(argv)
    try:
        staged = load_incoming(args.incoming, args.real)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    if not staged:
        print(f"nothing staged in {args.incoming}", file=sys.stderr)
        return 1
    looks = first_look(staged)
    print(report(staged, looks))
    if args.dry_run:
        print("dry run: nothing written, nothing moved")
        return 0
    moved = record(staged, looks, args.real)
    if args.incoming.is_dir() and not any(args.incoming.iterdir()):
        args.incoming.rmdir()
    print(f"recorded first_look in {len(moved)} sidecars and moved them into {args.real}")
    for problem in sync_families(args.real):  # the counts are rewritten; a new family needs its description
        print(f"families table of {args.real / 'README.md'}: {problem}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
