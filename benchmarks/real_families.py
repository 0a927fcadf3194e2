"""Keep the families table of ``benchmarks/real/README.md`` true: counts from the folders, descriptions by hand.

    python benchmarks/real_families.py           # rewrite the counts in place; exit 1 naming what needs a person
    python benchmarks/real_families.py --check   # write nothing; exit 1 if the table is stale or incomplete

The table sits between ``<!-- families -->`` and ``<!-- /families -->``: one row per folder of the corpus
(``| family | outputs | what it looks like |``). The counts are generated (the ``.txt`` outputs in each folder);
the descriptions are written by someone who read the family's cases, so they are never invented here. A new
folder gets a row with an empty description, and the script exits non-zero naming it; a row whose folder is gone
is kept (its description may belong to a renamed folder) and named too. ``benchmarks/first_look.py`` calls
``sync`` after it moves a hunt's cases in, so the counts stay true.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

REAL = Path(__file__).resolve().parent / "real"
START = "<!-- families -->"
END = "<!-- /families -->"
HEADER = "| family | outputs | what it looks like |\n|---|---|---|\n"


@dataclass(frozen=True, kw_only=True)
class Row:
    """One row of the table."""

    family: str
    outputs: int
    description: str


@dataclass(kw_only=True)
class Sync:
    """What ``sync`` found and did."""

    text: str
    """The README with the table rewritten."""
    changed: bool
    """Whether ``text`` differs from the README as it was."""
    undescribed: list[str] = field(default_factory=list[str])
    """Families whose row has no description (a new folder gets such a row)."""
    orphaned: list[str] = field(default_factory=list[str])
    """Rows whose folder no longer exists."""

    @property
    def problems(self) -> list[str]:
        return [f"{f}: no description (write what its cases look like)" for f in self.undescribed] + [
            f"{f}: a row but no folder (rename or remove the row)" for f in self.orphaned
        ]


def counts(real: Path) -> dict[str, int]:
    """Each family folder of ``real`` and its number of outputs (``.txt`` files)."""
    return {d.name: sum(1 for _ in d.glob("*.txt")) for d in sorted(real.iterdir()) if d.is_dir()}


def parse_rows(table: str) -> list[Row]:
    """The rows of the table's text (header and separator skipped).

    Raises:
        ValueError: a line that is not a row of three cells, or a count that is not a number.
    """
    rows: list[Row] = []
    for line in table.splitlines():
        if not line.strip() or line.startswith(("| family |", "|---")):
            continue
        if not (line.startswith("| ") and line.endswith(" |")):
            raise ValueError(f"not a row of the families table: {line!r}")
        cells = line[2:-2].split(" | ", 2)
        if len(cells) != 3 or not cells[1].strip().isdigit():
            raise ValueError(f"not a row of the families table (family | outputs | description): {line!r}")
        rows.append(Row(family=cells[0].strip(), outputs=int(cells[1]), description=cells[2].strip()))
    return rows


def render(rows: list[Row]) -> str:
    return HEADER + "".join(f"| {r.family} | {r.outputs} | {r.description} |\n" for r in rows)


def rewrite(readme: str, found: dict[str, int]) -> Sync:
    """The README with the table's counts set from ``found``, a row added for each new family, rows sorted.

    Raises:
        ValueError: the markers are missing or out of order, or a row cannot be read.
    """
    start, end = readme.find(START), readme.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the README has no {START} … {END} block around the families table")
    body_start = start + len(START) + 1  # the newline after the marker
    rows = {r.family: r for r in parse_rows(readme[body_start:end])}
    merged = [Row(family=f, outputs=n, description=rows[f].description if f in rows else "") for f, n in found.items()]
    orphaned = sorted(f for f in rows if f not in found)
    merged += [rows[f] for f in orphaned]
    merged.sort(key=lambda r: r.family)
    text = readme[:body_start] + render(merged) + readme[end:]
    return Sync(
        text=text,
        changed=text != readme,
        undescribed=[r.family for r in merged if not r.description and r.family in found],
        orphaned=orphaned,
    )


def sync(real: Path = REAL, *, write: bool = True) -> Sync:
    """Rewrite ``real/README.md``'s families table from ``real``'s folders (unless ``write`` is false)."""
    path = real / "README.md"
    readme = path.read_text(encoding="utf-8")
    result = rewrite(readme, counts(real))
    if write and result.changed:
        path.write_text(result.text, encoding="utf-8")
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--real", type=Path, default=REAL, help="the corpus (default benchmarks/real)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if the table is stale")
    args = ap.parse_args(argv)
    try:
        result = sync(args.real, write=not args.check)
    except (OSError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 1
    for problem in result.problems:
        print(problem, file=sys.stderr)
    if args.check and result.changed:
        print("the families table is stale: run python benchmarks/real_families.py", file=sys.stderr)
        return 1
    if result.changed:
        print(f"rewrote the families table of {args.real / 'README.md'}")
    return 1 if result.problems else 0


if __name__ == "__main__":
    sys.exit(main())
