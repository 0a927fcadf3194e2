"""The wheel carries the data folders that live at the top of the repository (grammars/, prompts/, the
benchmark fixtures and quoted corpora), and an installed copy finds them without the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(out)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("shim-*.whl")
    return built


def test_the_wheel_contains_grammars_prompts_and_fixtures(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "shim/_data/grammars/lenient_json.lark" in names
    assert {"shim/_data/prompts/function_call.j2", "shim/_data/prompts/tool_call.j2"} <= names
    assert any(n.startswith("shim/_data/benchmarks/fixtures/") and n.endswith(".txt") for n in names)
    assert any(n.startswith("shim/_data/benchmarks/real/deepseek/") and n.endswith(".txt") for n in names)
    assert "shim/_data/benchmarks/decoys/sources.json" in names
    assert not any(n.startswith(("tests/", "shim/_data/grammars/.")) for n in names)


def test_an_unpacked_wheel_parses_with_its_own_grammar(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "import shim.resources as r, shim.parsing.lenient_json as j;"
        "print(r.data_dir('grammars'));"
        "print(j.loads(\"{'a': True,}\"))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert out[0].startswith(str(site)) and out[1] == "{'a': True}"


def test_an_unpacked_wheel_loads_the_real_corpus_and_the_decoys_byte_exact(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "from shim.bench.real import load_real, load_decoys, real_dir;"
        "print(real_dir()); print(len(load_real())); print(len(load_decoys()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    assert out[0].startswith(str(site)) and int(out[1]) >= 150 and int(out[2]) >= 30
