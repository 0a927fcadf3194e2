"""Profile stop sequences: merged after the request's own without repeats or going past the engine limit, and never
able to cut a call short (checked on the calls each profile's prompt teaches and on every real model output)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from shim.backends.base import GenerationOptions, stop_sequences
from shim.bench.real import load_real, real_dir
from shim.events import ToolCallEnd
from shim.profiles import DEFAULT_PROFILE, MAX_STOP, PROFILES, ModelProfile, find_profile, get_profile, merge_stop
from shim.prompting.dialects import get_dialect


def test_the_request_s_stops_come_first_then_the_family_s_without_repeats_and_at_most_four() -> None:
    assert merge_stop(["\nUser:", "<|im_end|>"], ["<|im_end|>"]) == ("\nUser:", "<|im_end|>")
    assert merge_stop([], ["<|eot_id|>", "<|eom_id|>"]) == ("<|eot_id|>", "<|eom_id|>")
    assert merge_stop(["a", "b", "c"], ["x", "y"]) == ("a", "b", "c", "x")
    assert len(merge_stop(["a", "b", "c", "d"], ["x"])) == MAX_STOP == 4
    # More than the limit is the client's own request: passed on whole, for the engine to judge, never cut.
    assert merge_stop(["a", "b", "c", "d", "e"], ["x"]) == ("a", "b", "c", "d", "e")
    assert merge_stop(["", "a", "a"], [""]) == ("a",)


def test_a_profile_adds_its_stops_to_fixed_and_per_turn_options_and_leaves_options_alone_without_any() -> None:
    qwen = get_profile("qwen")
    options = qwen.options(GenerationOptions(temperature=0.2, stop=("END",)))
    assert isinstance(options, GenerationOptions)
    assert (stop_sequences(options), options.temperature) == (("END", "<|im_end|>"), 0.2)
    assert qwen.options(None) == GenerationOptions(family_stop=("<|im_end|>",))
    per_turn = qwen.options(lambda turn: GenerationOptions(max_tokens=turn))
    assert callable(per_turn) and per_turn(7) == GenerationOptions(max_tokens=7, family_stop=("<|im_end|>",))


def test_the_engine_s_own_stop_and_the_client_s_are_never_dropped_for_the_family_s() -> None:
    """Issue 23 item 3: a profile with two stops, two client stops, and a backend that adds its transcript stop
    (the raw completions API): the cap is applied once, after the backend's own, and drops only the family's."""
    llama3 = get_profile("llama3")
    assert len(llama3.stop) == 2
    options = llama3.options(GenerationOptions(stop=("END", "STOP")))
    assert isinstance(options, GenerationOptions)
    assert stop_sequences(options, own=("\nUser:",)) == ("END", "STOP", "\nUser:", llama3.stop[0])
    assert DEFAULT_PROFILE.options(None) is None  # no stops: the request goes out exactly as before profiles
    gemma4 = get_profile("gemma4")
    assert not gemma4.stop and gemma4.options(GenerationOptions(seed=1)) == GenerationOptions(seed=1)


@pytest.mark.parametrize("profile", [*PROFILES, DEFAULT_PROFILE], ids=lambda p: p.name)
def test_no_stop_sequence_occurs_in_a_call_the_profile_s_prompt_teaches(profile: ModelProfile) -> None:
    dialect = get_dialect(profile.dialect)
    call = dialect.render_call("get_weather", {"city": "Paris", "note": "a </s> b"})
    for stop in profile.stop:
        assert stop not in dialect.call_open + dialect.call_close and stop not in call.replace("a </s> b", ""), stop


def _calls(profile: ModelProfile, text: str, tools: Any) -> list[tuple[str, Any]]:
    parser = profile.parser(tools)
    return [(e.name, e.arguments) for e in parser.feed(text) + parser.close() if isinstance(e, ToolCallEnd)]


def _cut_short(profile_of: Callable[[str | None], ModelProfile]) -> tuple[list[str], int]:
    """The real outputs whose calls change when the text ends before the first stop sequence of the profile
    ``profile_of`` gives their model (as an engine ends it), and how many outputs had stop sequences to check."""
    failures: list[str] = []
    checked = 0
    for case in load_real():
        family, name = case.id.removeprefix("real:").split("/")
        meta = json.loads((real_dir() / family / f"{name}.json").read_text(encoding="utf-8"))
        if meta.get("runs_past_stop"):
            continue  # the model ran on past its own end of turn: an engine stopping there drops the rest by design
        profile = profile_of(meta.get("model"))
        cuts = [i for stop in profile.stop if (i := case.text.find(stop)) >= 0]
        checked += bool(profile.stop)
        if not cuts:
            continue  # the engine would not stop early: the text it returns is the whole output
        tools = list(case.tools) if case.tools else None
        whole = _calls(profile, case.text, tools)  # a hunt's output the parser misses is scored elsewhere
        if _calls(profile, case.text[: min(cuts)], tools) != whole:
            failures.append(case.id)
    return failures, checked


def test_an_engine_stopping_at_its_model_s_stop_sequences_never_cuts_a_real_call_short() -> None:
    # Each real output is cut where its own model's profile (found from the model its metadata names) would
    # stop the engine: a profile stop is an end-of-turn marker, never part of a call.
    failures, checked = _cut_short(lambda model: find_profile(model) if model else DEFAULT_PROFILE)
    assert failures == []
    assert checked >= 45  # most outputs come from a model whose profile has stop sequences


def test_a_call_closer_as_a_stop_sequence_would_cut_real_calls_short() -> None:
    # The check above has teeth: were GLM's stop its call closer, its outputs with several calls would lose all
    # but the first (the parser forgives a last closer missing, so a single call survives).
    closer = replace(get_profile("glm"), stop=("</tool_call>",))
    failures, _ = _cut_short(lambda model: closer if model and "glm" in model.lower() else DEFAULT_PROFILE)
    assert "real:glm/ollama_glm47_three_calls" in failures and len(failures) >= 3


def test_a_stop_sequence_of_one_family_can_be_inside_another_s_call_so_stops_follow_the_detected_profile() -> None:
    # Why stops come from the model's own profile only: Phi-4 ends its turn with <|end|>, which gpt-oss's
    # Harmony format writes between its analysis and its call (a real output from Ollama's harmony tests).
    case = next(c for c in load_real() if c.id == "real:harmony/ollama_analysis_then_call")
    assert "<|end|>" in get_profile("phi4").stop and not get_profile("gpt-oss").stop
    calls = [(c.name, c.arguments) for c in case.calls]
    assert _calls(get_profile("gpt-oss"), case.text, None) == calls
    assert _calls(get_profile("gpt-oss"), case.text[: case.text.find("<|end|>")], None) != calls
