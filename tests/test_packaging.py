"""The wheel carries the data folders that live at the top of the repository (grammars/, prompts/, the
benchmark fixtures), and an installed copy finds them without the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_contains_grammars_prompts_and_fixtures(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("shim-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "shim/_data/grammars/lenient_json.lark" in names
    assert {"shim/_data/prompts/function_call.j2", "shim/_data/prompts/tool_call.j2"} <= names
    assert any(n.startswith("shim/_data/benchmarks/fixtures/") and n.endswith(".txt") for n in names)
    assert not any(n.startswith(("tests/", "shim/_data/grammars/.")) for n in names)


def test_an_unpacked_wheel_parses_with_its_own_grammar(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("shim-*.whl")
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import shim.resources as r, shim.parsing.lenient_json as j;"
        "print(r.data_dir('grammars'));"
        "print(j.loads(\"{'a': True,}\"))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(site)}, check=True, capture_output=True, text=True
    ).stdout.splitlines()
    assert out[0].startswith(str(site)) and out[1] == "{'a': True}"
