"""`shim.profiles.from_template`: a model's call syntax read from its own chat template, and read back."""

from __future__ import annotations

import pytest

from shim import StreamParser
from shim.events import ReasoningDelta, ToolCallEnd
from shim.profiles import from_template
from tests.profiles.roundtrip import HERE, TEMPLATE_FILES, TOOLS, check

README = HERE / "README.md"


def _template(name: str) -> str:
    return next(p for p in TEMPLATE_FILES if p.name == name).read_text(encoding="utf-8")


def test_the_round_trip_reads_back_95_percent_of_cases_over_at_least_60_real_templates() -> None:
    results = [check(path) for path in TEMPLATE_FILES]
    probed = [r for r in results if r.error is None]
    passed = sum(len(r.passed) for r in probed)
    failed = [f"{r.template} [{case}]: {why}" for r in probed for case, why in r.failures.items()]
    total = passed + len(failed)
    assert len(probed) >= 60, [f"{r.template}: {r.error}" for r in results if r.error]
    assert passed / total >= 0.95, "\n".join([f"{passed}/{total} cases", *failed])
    documented = README.read_text(encoding="utf-8")
    undocumented = [line for line in failed if line.split(" [", 1)[0] not in documented]
    assert not undocumented, "failing templates missing from templates/README.md:\n" + "\n".join(undocumented)


def test_a_template_that_writes_no_calls_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="does not render tool calls"):
        from_template(_template("google-gemma-2-2b-it.jinja"))
    with pytest.raises(ValueError, match="does not compile"):
        from_template("{% if %}")
    with pytest.raises(ValueError, match="does not render: TemplateError: no tools here"):
        from_template("{{ raise_exception('no tools here') }}")


def test_qwen3_coder_parameters_are_derived_as_markers() -> None:
    syntax = from_template(_template("Qwen3-Coder.jinja")).syntax
    assert syntax is not None
    assert (syntax.name_at, syntax.arguments) == ("markup", "params")
    assert (syntax.call_open, syntax.name_close.strip(), syntax.call_close) == (
        "<tool_call>\n<function=",
        ">",
        "</function>\n</tool_call>",
    )
    assert (syntax.param_open, syntax.param_key_close, syntax.param_close) == ("<parameter=", ">", "</parameter>")


def test_kimi_splits_block_and_call_markers_and_any_call_index_matches() -> None:
    profile = from_template(_template("moonshotai-Kimi-K2.jinja"))
    assert profile.syntax is not None
    assert profile.syntax.block_open == "<|tool_calls_section_begin|>"
    assert profile.syntax.call_open == "<|tool_call_begin|>functions."
    text = (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:7<|tool_call_argument_begin|>"
        '{"city": "Oslo"}<|tool_call_end|><|tool_calls_section_end|>'
    )
    parser = StreamParser(TOOLS, profile=profile)
    events = parser.feed(text) + parser.close()
    assert [(e.name, e.arguments) for e in events if isinstance(e, ToolCallEnd)] == [("get_weather", {"city": "Oslo"})]
    assert "".join(e.raw for e in events) == text


def test_a_generation_prompt_that_opens_reasoning_starts_the_parser_inside_it() -> None:
    profile = from_template(_template("GLM-4.7-Flash.jinja"))
    assert profile.starts_in_reasoning and profile.thinking == ("<think>", "</think>")
    text = "Let me look.</think><tool_call>get_weather<arg_key>city</arg_key><arg_value>Rome</arg_value></tool_call>"
    parser = StreamParser(TOOLS, profile=profile)
    events = parser.feed(text) + parser.close()
    assert [e.text for e in events if isinstance(e, ReasoningDelta)] == ["Let me look."]
    assert [e.arguments for e in events if isinstance(e, ToolCallEnd)] == [{"city": "Rome"}]


def test_every_template_in_a_subfolder_is_named_in_the_provenance() -> None:
    # The top folder's files share one provenance line (llama.cpp's folder at one commit); the others are named.
    provenance = (HERE / "PROVENANCE.md").read_text(encoding="utf-8")
    missing = [str(p.relative_to(HERE)) for p in TEMPLATE_FILES if p.parent != HERE and p.name not in provenance]
    assert not missing
