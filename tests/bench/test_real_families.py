"""benchmarks/real_families.py: the families table of the real corpus's README has one true row per folder.

The counts are generated from the folders and the descriptions are written by hand; these tests fail when the
table drifts from the corpus (a folder without a row, a row without a folder, a wrong count, an empty
description), and show the script's rewrite on a small corpus in ``tmp_path``.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from shim.bench.real import real_dir
from tests.helpers.scripts import load_script

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "real_families.py"


def _script() -> ModuleType:
    return load_script(_SCRIPT, "real_families_script")


real_families = _script()
REAL = real_dir()


def _table_rows() -> dict[str, Any]:
    readme = (REAL / "README.md").read_text(encoding="utf-8")
    start = readme.index(real_families.START) + len(real_families.START)
    end = readme.index(real_families.END)
    return {row.family: row for row in real_families.parse_rows(readme[start:end])}


def _folders() -> dict[str, int]:
    return {d.name: len(list(d.glob("*.txt"))) for d in REAL.iterdir() if d.is_dir()}


def test_every_family_folder_has_a_row_and_every_row_a_folder() -> None:
    rows, folders = _table_rows(), _folders()
    assert sorted(set(folders) - set(rows)) == [], "folders without a row: run python benchmarks/real_families.py"
    assert sorted(set(rows) - set(folders)) == [], "rows whose folder is gone"


def test_every_row_counts_the_outputs_its_folder_holds() -> None:
    rows, folders = _table_rows(), _folders()
    wrong = {f: (rows[f].outputs, n) for f, n in folders.items() if f in rows and rows[f].outputs != n}
    assert wrong == {}, "(row, folder) counts differ: run python benchmarks/real_families.py"


def test_every_row_describes_its_family() -> None:
    empty = [f for f, row in _table_rows().items() if not row.description.strip()]
    assert empty == []


def test_the_script_would_leave_the_readme_as_it_is() -> None:
    result = real_families.sync(REAL, write=False)
    assert result.problems == []
    assert not result.changed


def _corpus(tmp_path: Path, table: str, folders: dict[str, int]) -> Path:
    real = tmp_path / "real"
    real.mkdir()
    for family, n in folders.items():
        (real / family).mkdir()
        for i in range(n):
            (real / family / f"case{i}.txt").write_text("x", encoding="utf-8")
            (real / family / f"case{i}.json").write_text("{}", encoding="utf-8")
    readme = f"# corpus\n\n## Families\n\n{real_families.START}\n{table}{real_families.END}\n\n## After\n\nkept\n"
    (real / "README.md").write_text(readme, encoding="utf-8")
    return real


_TABLE = (
    "| family | outputs | what it looks like |\n|---|---|---|\n"
    "| glm | 1 | GLM `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>` |\n"
    "| hermes | 9 | Hermes `<tool_call>{…}</tool_call>`, `<\\|im_end\\|>` after |\n"
)


def test_a_new_folder_gets_a_row_the_counts_are_rewritten_and_the_rest_is_kept(tmp_path: Path) -> None:
    real = _corpus(tmp_path, _TABLE, {"glm": 3, "hermes": 2, "apertus": 1})

    assert real_families.main(["--real", str(real)]) == 1

    readme = (real / "README.md").read_text(encoding="utf-8")
    assert readme == (
        "# corpus\n\n## Families\n\n<!-- families -->\n"
        "| family | outputs | what it looks like |\n|---|---|---|\n"
        "| apertus | 1 |  |\n"
        "| glm | 3 | GLM `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value>` |\n"
        "| hermes | 2 | Hermes `<tool_call>{…}</tool_call>`, `<\\|im_end\\|>` after |\n"
        "<!-- /families -->\n\n## After\n\nkept\n"
    )


def test_a_new_folder_is_reported_as_lacking_a_description(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = _corpus(tmp_path, _TABLE, {"glm": 1, "hermes": 9, "apertus": 1})

    result = real_families.sync(real)

    assert result.undescribed == ["apertus"] and result.orphaned == []
    assert real_families.main(["--real", str(real)]) == 1
    assert "apertus: no description" in capsys.readouterr().err


def test_a_row_whose_folder_is_gone_is_kept_and_reported(tmp_path: Path) -> None:
    real = _corpus(tmp_path, _TABLE, {"hermes": 9})

    result = real_families.sync(real)

    assert result.orphaned == ["glm"]
    assert "| glm | 1 | GLM" in (real / "README.md").read_text(encoding="utf-8")


def test_a_true_table_passes_the_check_and_a_wrong_count_fails_it(tmp_path: Path) -> None:
    real = _corpus(tmp_path, _TABLE, {"glm": 1, "hermes": 9})
    assert real_families.main(["--check", "--real", str(real)]) == 0

    (real / "hermes" / "case9.txt").write_text("x", encoding="utf-8")
    before = (real / "README.md").read_text(encoding="utf-8")

    assert real_families.main(["--check", "--real", str(real)]) == 1
    assert (real / "README.md").read_text(encoding="utf-8") == before  # --check writes nothing


def test_a_readme_without_the_markers_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = _corpus(tmp_path, _TABLE, {"glm": 1})
    (real / "README.md").write_text("# no table here\n", encoding="utf-8")

    assert real_families.main(["--real", str(real)]) == 1
    assert "<!-- families -->" in capsys.readouterr().err


def _first_look() -> ModuleType:
    return load_script(_SCRIPT.with_name("first_look.py"), "first_look_for_families")


def test_a_hunt_moved_in_by_first_look_leaves_the_table_counted_and_names_its_new_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    family, name = "llama_pythonic", "sglang_bare_list"  # short, so every chunker is quick
    source = REAL / family
    incoming = tmp_path / "incoming" / family
    incoming.mkdir(parents=True)
    (incoming / f"{name}.txt").write_bytes((source / f"{name}.txt").read_bytes())
    meta = json.loads((source / f"{name}.json").read_text(encoding="utf-8"))
    meta.pop("first_look", None)
    (incoming / f"{name}.json").write_text(json.dumps(meta | {"hunt": "a test hunt"}), encoding="utf-8")
    real = _corpus(tmp_path, _TABLE, {"glm": 1, "hermes": 9})

    assert _first_look().main(["--incoming", str(tmp_path / "incoming"), "--real", str(real)]) == 0

    assert "| llama_pythonic | 1 |  |" in (real / "README.md").read_text(encoding="utf-8")
    assert "llama_pythonic: no description" in capsys.readouterr().err
