"""The benchmark corpus: generated cases (clean calls through every mutation operator) plus recorded fixtures.

Generation is deterministic from a seed: each operator draws from its own ``random.Random`` seeded with the
corpus seed and the operator's name, so adding an operator does not change the cases of the others.

Fixtures are hand-written model outputs, one quirk per file: ``NAME.txt`` holds the exact output and
``NAME.json`` what a perfect parser reads out of it plus where that shape is seen. They live in the
repository's ``benchmarks/fixtures/`` and are copied into the wheel (``shim/_data/benchmarks``) so an
installed ``shim bench`` measures the same corpus as a checkout.
"""

from __future__ import annotations

import json
import random
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from shim.bench import ops_beyond, ops_compound, ops_edge, ops_json, ops_stream
from shim.bench.mutations import TOOLS, Call, Draw, Operator
from shim.resources import data_dir

__all__ = ["OPERATORS", "TOOLS", "Case", "fixtures_dir", "generate", "load_corpus", "load_fixtures"]

OPERATORS: tuple[Operator, ...] = (
    *ops_json.OPERATORS,
    *ops_stream.OPERATORS,
    *ops_edge.OPERATORS,
    *ops_compound.OPERATORS,
    *ops_beyond.OPERATORS,
)
"""Every mutation operator, in report order."""

_SEPARATORS = ("\n", "\n\n", " ", "")


@dataclass(frozen=True, kw_only=True)
class Case:
    """One model output and what a perfect parser reads out of it."""

    id: str
    category: str
    operator: str
    """The mutation operator (generated) or the fixture's file stem."""
    source: Literal["generated", "fixture", "real", "decoy"]
    text: str
    calls: list[Call]
    visible: str
    """Expected visible text; compared after folding whitespace."""
    errors: int | None = 0
    """Expected number of failed blocks; None when not scored."""
    note: str = ""
    """Where the shape is seen (fixtures, real outputs) or what the operator does (generated)."""
    tools: tuple[dict[str, Any], ...] | None = None
    """The tools offered when the output was written (MCP ``tools/list`` entries); None: the bench's own set."""
    starts_in_reasoning: bool = False
    """The prompt the output continues opened a reasoning block (a chat template's thinking mode), so the output
    begins inside it and only closes it: what a model's profile tells the parser (``starts_in_reasoning``)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "operator": self.operator,
            "source": self.source,
            "text": self.text,
            "calls": [c.to_dict() for c in self.calls],
            "visible": self.visible,
            "errors": self.errors,
            "note": self.note,
            "tools": None if self.tools is None else [dict(t) for t in self.tools],
            "starts_in_reasoning": self.starts_in_reasoning,
        }


def generate(seed: int = 0, *, variants: int = 4, huge_chars: int = 16_000) -> list[Case]:
    """Run every operator ``variants`` times; wrap outputs in prose where the operator allows it."""
    cases: list[Case] = []
    for op in OPERATORS:
        rng = random.Random(zlib.crc32(f"{seed}:{op.name}".encode()))
        draw = Draw(rng, huge_chars=huge_chars)
        for i in range(variants * op.repeat):
            mutant = op.make(draw)
            text, visible = mutant.text, mutant.visible
            # Half the variants of a wrappable operator get prose before and some after, so the corpus
            # covers both "the block is the whole message" and "the block is mid-message".
            if op.wrap and i % 2 == 1:
                text = draw.pre() + rng.choice(_SEPARATORS) + text
                visible = text[: len(text) - len(mutant.text)] + " " + visible
                if op.tail and rng.random() < 0.5:
                    post = draw.post()
                    text = text + rng.choice(_SEPARATORS[:3]) + post
                    visible = visible + " " + post
            cases.append(
                Case(
                    id=f"{op.name}#{i}",
                    category=op.category,
                    operator=op.name,
                    source="generated",
                    text=text,
                    calls=list(mutant.calls),
                    visible=visible,
                    errors=mutant.errors,
                    note=op.doc,
                )
            )
    return cases


def fixtures_dir() -> Path:
    """``benchmarks/fixtures`` of the checkout, or its copy inside an installed wheel.

    Raises:
        FileNotFoundError: neither exists (a broken install).
    """
    return data_dir("benchmarks") / "fixtures"


def load_fixtures(folder: Path | None = None) -> list[Case]:
    """Read every ``NAME.txt`` with its ``NAME.json`` sidecar.

    Raises:
        ValueError: a fixture lacks its sidecar or the sidecar lacks a field.
    """
    folder = folder or fixtures_dir()
    cases: list[Case] = []
    for txt in sorted(folder.glob("*.txt")):
        sidecar = txt.with_suffix(".json")
        if not sidecar.is_file():
            raise ValueError(f"fixture {txt.name!r} has no sidecar {sidecar.name!r}")
        meta: dict[str, Any] = json.loads(sidecar.read_text(encoding="utf-8"))
        try:
            calls = [Call(name=c["name"], arguments=c.get("arguments", {})) for c in meta["calls"]]
            cases.append(
                Case(
                    id=f"fixture:{txt.stem}",
                    category=meta["category"],
                    operator=txt.stem,
                    source="fixture",
                    # newline="" keeps the bytes exact: a fixture may end without a newline or use \r\n.
                    text=_read_exact(txt),
                    calls=calls,
                    visible=meta["visible"],
                    errors=meta.get("errors", 0),
                    note=meta["seen_in"],
                )
            )
        except KeyError as exc:
            raise ValueError(f"fixture sidecar {sidecar.name!r} lacks field {exc.args[0]!r}") from None
    return cases


def _read_exact(path: Path) -> str:
    with path.open(encoding="utf-8", newline="") as f:
        return f.read()


def load_corpus(seed: int = 0, *, variants: int = 4, huge_chars: int = 16_000) -> list[Case]:
    """Generated cases followed by the fixtures."""
    return [*generate(seed, variants=variants, huge_chars=huge_chars), *load_fixtures()]
