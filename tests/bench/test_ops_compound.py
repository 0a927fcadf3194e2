"""shim.bench.ops_compound: random combinations of defects, each still with one unambiguous expectation."""

from __future__ import annotations

import json_repair

from tests.bench.conftest import mutants


def test_compound_variants_cover_tags_shapes_and_defects() -> None:
    texts = [m.text for m in mutants("compound_defects", 80)]
    for feature in ("<tool_call>", "<FUNCTION_CALL>", "```json", "'name'", "True", '"function"', "parameters", "//"):
        assert any(feature in t for t in texts), feature
    assert any(not t.rstrip().endswith(">") for t in texts)  # some blocks are never closed


def test_compound_variants_expect_one_call_and_only_the_prose_as_text() -> None:
    for m in mutants("compound_defects", 80):
        assert len(m.calls) == 1
        assert m.calls[0].name in m.text
        assert not set(m.visible) & set("<>{}[]")  # only prose is expected back as text


def test_an_unclosed_compound_block_ends_the_stream() -> None:
    for m in mutants("compound_defects", 80):
        tag_end = m.text.rfind("</")
        if tag_end < 0:
            assert not m.visible.strip() or m.text.startswith(m.visible.strip())
            start = m.text.index(">") + 1
            data = json_repair.loads(m.text[start:].removeprefix("json\n"))
            assert data  # the body is complete enough to read: the stream ends after the last value
