"""benchmarks/first_look.py: a staged hunt is scored as the real track scores it, recorded once and moved in.

Every test works on a temporary copy of one existing corpus case (never on a staged hunt: its first look must be
taken by the lead, once, before the parser changes for it).
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from shim.bench.real import load_real, real_dir
from tests.helpers.scripts import load_script

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "first_look.py"
_CASE = ("llama_pythonic", "sglang_bare_list")  # a short output shim reads exactly, so every chunker is quick
_HUNT = "a test hunt"


def _script() -> ModuleType:
    return load_script(_SCRIPT, "first_look_script")


first_look = _script()


def _stage(tmp_path: Path, **changes: Any) -> tuple[Path, Path]:
    """Copy the corpus case into ``tmp_path/incoming`` as a hunt stages it; return (incoming, real)."""
    family, name = _CASE
    source = real_dir() / family
    incoming = tmp_path / "incoming"
    (incoming / family).mkdir(parents=True)
    (incoming / family / f"{name}.txt").write_bytes((source / f"{name}.txt").read_bytes())
    meta = json.loads((source / f"{name}.json").read_text(encoding="utf-8"))
    meta.pop("first_look", None)
    meta |= {"hunt": _HUNT} | changes
    (incoming / family / f"{name}.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
    return incoming, tmp_path / "real"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_staged_case_gets_its_first_look_and_moves_into_the_corpus_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    incoming, real = _stage(tmp_path)
    family, name = _CASE
    text = (incoming / family / f"{name}.txt").read_bytes()

    assert first_look.main(["--incoming", str(incoming), "--real", str(real)]) == 0

    out = capsys.readouterr().out
    assert f"hunt: {_HUNT}" in out and "exact calls: 1/1 (100%)" in out and "all checks:  1/1" in out
    assert f"| {_HUNT} | 1 | 1/1 | 1/1 |" in out
    assert not incoming.exists()
    assert (real / family / f"{name}.txt").read_bytes() == text
    meta = json.loads((real / family / f"{name}.json").read_text(encoding="utf-8"))
    assert meta["hunt"] == _HUNT
    assert meta["first_look"] == {"exact_calls": True, "all_checks": True}
    [case] = load_real(real)  # the moved case validates as a corpus case, first look included
    assert case.id == f"real:{family}/{name}"


def test_a_dry_run_prints_the_score_and_writes_or_moves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    incoming, real = _stage(tmp_path)
    before = _snapshot(incoming)

    assert first_look.main(["--dry-run", "--incoming", str(incoming), "--real", str(real)]) == 0

    out = capsys.readouterr().out
    assert "exact calls: 1/1" in out and "dry run: nothing written, nothing moved" in out
    assert _snapshot(incoming) == before
    assert not real.exists()


def test_calls_the_parser_does_not_read_as_expected_are_recorded_and_listed_under_their_class(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = [{"name": "search", "arguments": {"query": "rust programming"}}]
    incoming, real = _stage(tmp_path, calls=wrong)

    assert first_look.main(["--incoming", str(incoming), "--real", str(real)]) == 0

    out = capsys.readouterr().out
    assert "exact calls: 0/1 (0%)" in out
    assert "calls not read exactly (1):" in out and "llama_pythonic/sglang_bare_list" in out
    assert '"python programming"' in out  # what the parser read, beside what was expected
    meta = json.loads((real / "llama_pythonic" / "sglang_bare_list.json").read_text(encoding="utf-8"))
    assert meta["first_look"] == {"exact_calls": False, "all_checks": False}


def test_exact_calls_with_the_wrong_visible_text_fail_all_checks_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    incoming, real = _stage(tmp_path, visible="words the output does not hold")

    assert first_look.main(["--dry-run", "--incoming", str(incoming), "--real", str(real)]) == 0

    out = capsys.readouterr().out
    assert "exact calls: 1/1" in out and "all checks:  0/1" in out
    assert "calls exact; failed text_ok" in out


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"first_look": {"exact_calls": True, "all_checks": True}}, "first_look is already recorded"),
        ({"hunt": ""}, "needs the name of its hunt"),
        ({"sha256": "0" * 64}, "sha256 does not match"),
        ({"calls": [{"name": "not_offered", "arguments": {}}]}, "'not_offered' is not among the offered tools"),
    ],
)
def test_a_staged_case_that_is_not_ready_is_refused_and_nothing_is_scored_or_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, Any], problem: str
) -> None:
    incoming, real = _stage(tmp_path, **changes)
    before = _snapshot(incoming)

    assert first_look.main(["--incoming", str(incoming), "--real", str(real)]) == 1

    captured = capsys.readouterr()
    assert problem in captured.err and "llama_pythonic/sglang_bare_list" in captured.err
    assert "hunt:" not in captured.out  # refused before scoring
    assert _snapshot(incoming) == before
    assert not real.exists()


def test_a_name_already_taken_in_the_corpus_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    incoming, real = _stage(tmp_path)
    (real / "llama_pythonic").mkdir(parents=True)
    (real / "llama_pythonic" / "sglang_bare_list.txt").write_text("already here", encoding="utf-8")

    assert first_look.main(["--incoming", str(incoming), "--real", str(real)]) == 1

    assert "already exists in the corpus" in capsys.readouterr().err
    assert (real / "llama_pythonic" / "sglang_bare_list.txt").read_text(encoding="utf-8") == "already here"
    assert (incoming / "llama_pythonic" / "sglang_bare_list.json").is_file()


def test_an_empty_staging_folder_is_reported_not_scored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "incoming").mkdir()

    assert first_look.main(["--incoming", str(tmp_path / "incoming"), "--real", str(tmp_path / "real")]) == 1

    assert "nothing staged" in capsys.readouterr().err
