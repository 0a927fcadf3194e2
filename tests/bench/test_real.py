"""shim.bench.real: the quoted corpora load, every case is valid, and no quoted byte has changed."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from shim.bench.real import (
    NEGATIVE,
    PROVENANCE_TYPES,
    decoys_dir,
    load_decoys,
    load_hunts,
    load_real,
    real_case,
    real_dir,
    validate_real,
)

REAL = real_dir()
SIDECARS = sorted(REAL.glob("*/*.json"))


def test_the_real_corpus_has_at_least_150_outputs_spread_over_the_families() -> None:
    cases = load_real()
    families = Counter(c.category for c in cases)
    assert len(cases) >= 150
    for family in ("deepseek", "kimi_k2", "glm", "minimax_xml", "harmony", "gemma4", "functiongemma", "granite"):
        assert families[family] >= 2, family
    for family in ("phi4", "lfm2", "olmo", "xlam", "llama4", "minicpm", "tool_name_xml", "react", "damaged"):
        assert families[family] >= 2, family


@pytest.mark.parametrize("sidecar", SIDECARS, ids=[f"{p.parent.name}/{p.stem}" for p in SIDECARS])
def test_every_real_output_has_provenance_valid_metadata_and_its_recorded_sha256(sidecar: Path) -> None:
    text = sidecar.with_suffix(".txt").read_bytes().decode("utf-8")
    meta = json.loads(sidecar.read_text(encoding="utf-8"))
    assert validate_real(meta, text, family=sidecar.parent.name) == []
    assert meta["provenance"]["type"] in PROVENANCE_TYPES
    assert hashlib.sha256(sidecar.with_suffix(".txt").read_bytes()).hexdigest() == meta["sha256"]


def test_every_text_has_a_sidecar_and_the_split_of_provenance_is_the_readme_s() -> None:
    texts = sorted(REAL.glob("*/*.txt"))
    assert [t.with_suffix(".json") for t in texts] == SIDECARS
    kinds = Counter(json.loads(p.read_text(encoding="utf-8"))["provenance"]["type"] for p in SIDECARS)
    readme = (REAL / "README.md").read_text(encoding="utf-8")
    assert f"{kinds['peer_test']} `peer_test`" in readme and f"{kinds['model_output']} `model_output`" in readme
    assert readme.splitlines()[2].startswith(f"{len(texts):,} raw model outputs and documents")


def test_a_changed_byte_is_caught_and_named(tmp_path: Path) -> None:
    source = REAL / "hermes"
    family = tmp_path / "hermes"
    family.mkdir()
    first = sorted(source.glob("*.txt"))[0]
    (family / first.name).write_bytes(first.read_bytes() + b" ")
    (family / first.with_suffix(".json").name).write_bytes(first.with_suffix(".json").read_bytes())
    with pytest.raises(ValueError, match="sha256 does not match"):
        load_real(tmp_path)


def test_metadata_problems_are_each_named() -> None:
    meta = {"family": "glm", "provenance": {"type": "model_output", "source": "a/b"}, "tools": [{"name": "f"}]}
    meta |= {"calls": [{"name": "g", "arguments": {}}], "visible": "", "sha256": "0"}
    problems = validate_real(meta, "x", family="glm")
    assert any("url" in p for p in problems)
    assert any("'g' is not among the offered tools" in p for p in problems)
    assert any("sha256" in p for p in problems)


def test_a_negative_case_that_calls_or_hides_text_is_refused() -> None:
    meta = {"family": NEGATIVE, "provenance": {"type": "document", "source": "a/b:c.md"}, "tools": [{"name": "f"}]}
    meta |= {"calls": [], "visible": "other", "sha256": hashlib.sha256(b"x").hexdigest()}
    assert any("keeps every character" in p for p in validate_real(meta, "x", family=NEGATIVE))
    assert validate_real(meta | {"visible": "x"}, "x", family=NEGATIVE) == []


def test_a_case_from_a_hunt_must_record_its_first_look() -> None:
    meta = {"family": "glm", "provenance": {"type": "peer_test", "source": "a/b:c"}, "tools": [{"name": "f"}]}
    meta |= {"calls": [], "visible": "x", "sha256": hashlib.sha256(b"x").hexdigest(), "hunt": "h"}
    assert any("first_look" in p for p in validate_real(meta, "x", family="glm"))
    ok = meta | {"first_look": {"exact_calls": False, "all_checks": False}}
    assert validate_real(ok, "x", family="glm") == []


def test_every_hunt_has_at_least_two_new_sources_worth_of_outputs_with_first_looks() -> None:
    hunts = load_hunts()
    by_hunt = Counter(h["hunt"] for h in hunts.values())
    assert len(by_hunt) >= 2 and sum(by_hunt.values()) >= 60
    assert all(isinstance(h["first_look"]["exact_calls"], bool) for h in hunts.values())
    assert any(c.category == NEGATIVE and not c.calls and c.visible == c.text for c in load_real())


def test_model_outputs_keep_the_url_of_their_thread() -> None:
    outputs = [c for c in load_real() if c.note.startswith("model_output")]
    assert outputs and all("https://" in c.note for c in outputs)


def test_the_decoys_hold_over_a_megabyte_of_prose_with_sources_and_licences() -> None:
    decoys = load_decoys()
    index = json.loads((decoys_dir() / "sources.json").read_text(encoding="utf-8"))
    assert sum(len(c.text.encode("utf-8")) for c in decoys) >= 1_000_000
    assert {c.category for c in decoys} >= {"tool_calling_docs", "code", "html_xml", "chat", "readme", "docs"}
    assert all(e["license"] and "@" in e["source"] and e["tools"] for e in index["documents"])
    assert all(c.calls == [] and c.visible == c.text and c.errors == 0 for c in decoys)


def test_a_decoy_listed_but_missing_is_refused(tmp_path: Path) -> None:
    entry = {"file": "docs/gone.md", "kind": "docs", "source": "a/b:c@d", "license": "MIT", "tools": ["f"]}
    (tmp_path / "sources.json").write_text(json.dumps({"documents": [entry]}), encoding="utf-8")
    with pytest.raises(ValueError, match="missing"):
        load_decoys(tmp_path)


def test_starts_in_reasoning_is_a_boolean_carried_into_the_case() -> None:
    meta = {"family": "glm", "provenance": {"type": "peer_test", "source": "a/b:c.go"}, "tools": [{"name": "f"}]}
    meta |= {"calls": [], "visible": "", "sha256": hashlib.sha256(b"x").hexdigest()}
    assert any(
        "starts_in_reasoning" in p for p in validate_real(meta | {"starts_in_reasoning": "yes"}, "x", family="glm")
    )
    assert validate_real(meta | {"starts_in_reasoning": True}, "x", family="glm") == []
    assert real_case(meta | {"starts_in_reasoning": True}, "x", family="glm", name="n").starts_in_reasoning
    assert not real_case(meta, "x", family="glm", name="n").starts_in_reasoning
