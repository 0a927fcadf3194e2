# bfcl-eval is untyped: its functions return unknown types, which strict pyright reports at every use.
# pyright: reportUnknownVariableType=false, reportUnknownMemberType=false, reportUnknownArgumentType=false
"""BFCL's questions and its AST checker, from the ``bfcl-eval`` package (the Berkeley Function Calling Leaderboard).

The ``models`` track asks real models BFCL's single-turn AST questions and scores them with BFCL's own code:
`load_questions` is ``bfcl_eval.utils.load_dataset_entry`` (the questions with BFCL's language hint added to
each function's description) and ``load_ground_truth_entry``; `score` runs what BFCL's
``eval_checker.eval_runner`` runs per entry (``_evaluate_single_ast_entry`` /
``_evaluate_single_relevance_entry``): ``ast_checker`` on the decoded calls, or "no call" for irrelevance.

Only data and checking are used, so ``bfcl-eval`` is installed without its engine dependencies
(``pip install --no-deps bfcl-eval`` plus ``tree_sitter``, ``tree-sitter-java``, ``tree-sitter-javascript``,
``filelock`` and ``tenacity``, which its data and checker modules import). The checker's one use of BFCL's
model registry (``constants.model_config``, which imports every provider's SDK) is whether a model's tool
names had their dots replaced by underscores; when that registry cannot be imported, a two-entry stand-in
answers the same question for the two kinds of run here (`FC_MODEL`, `PROMPT_MODEL`).
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "CATEGORIES",
    "FC_MODEL",
    "PROMPT_MODEL",
    "Question",
    "Verdict",
    "load_questions",
    "openai_tools",
    "score",
]

CATEGORIES: tuple[str, ...] = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
    "live_irrelevance",
)
"""BFCL's single-turn AST categories in Python (``simple`` is ``simple_python`` in BFCL v4)."""

FC_MODEL = "shim-fc"
"""Checker model name for runs that offer tools by name (dots in names became underscores, as in BFCL's FC
handlers)."""
PROMPT_MODEL = "shim-prompt"
"""Checker model name for runs that write ``[func(arg=val)]`` text with the names as given."""

Failure = Literal["malformed", "no_call", "wrong_name", "wrong_args", "unwanted_call"]


@dataclass(frozen=True, kw_only=True)
class Question:
    """One BFCL entry."""

    id: str
    category: str
    messages: list[dict[str, Any]]
    """The first (only) turn's messages."""
    functions: list[dict[str, Any]]
    """BFCL's function docs (``"type": "dict"`` parameters, with the language hint)."""
    answer: list[dict[str, Any]] | None
    """The possible answers, or None for irrelevance."""


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """How one output scored."""

    valid: bool
    failure: Failure | None
    error_type: str | None = None
    """BFCL's ``error_type`` (``simple_function_checker:wrong_func_name``...)."""
    error: list[str] | None = None


def _bfcl() -> types.ModuleType:
    try:
        return importlib.import_module("bfcl_eval.utils")
    except ImportError as exc:
        raise ImportError(
            "the models track needs BFCL's data and checker: pip install 'shim[models]' "
            f"(or pip install --no-deps bfcl-eval plus tree_sitter==0.21.3 tree-sitter-java tree-sitter-javascript "
            f"filelock tenacity) ({exc})"
        ) from None


def load_questions(category: str, limit: int | None = None, offset: int = 0) -> list[Question]:
    """``limit`` questions of ``category`` (all when None) from the ``offset``-th on, in BFCL's order: an offset
    keeps experiments off the questions a report scores.

    Raises:
        ValueError: the category is not one of `CATEGORIES`.
        ImportError: ``bfcl-eval`` is not installed.
    """
    if category not in CATEGORIES:
        raise ValueError(f"unknown BFCL category {category!r}; expected one of {list(CATEGORIES)!r}")
    utils: Any = _bfcl()
    entries = utils.load_dataset_entry(category)[max(offset, 0) :]
    if limit is not None:
        entries = entries[:limit]
    answers: dict[str, Any] = {}
    if "irrelevance" not in category:
        answers = {a["id"]: a["ground_truth"] for a in utils.load_ground_truth_entry(category)}
    return [
        Question(
            id=e["id"],
            category=category,
            messages=list(e["question"][0]),
            functions=e["function"],
            answer=answers.get(e["id"]),
        )
        for e in entries
    ]


def openai_tools(question: Question) -> list[dict[str, Any]]:
    """The functions as OpenAI tools, converted as BFCL's FC handlers convert them (``convert_to_tool``)."""
    handler_utils: Any = importlib.import_module("bfcl_eval.model_handler.utils")
    mapping: Any = importlib.import_module("bfcl_eval.constants.type_mappings").GORILLA_TO_OPENAPI
    style: Any = importlib.import_module("bfcl_eval.constants.enums").ModelStyle.OPENAI_COMPLETIONS
    return handler_utils.convert_to_tool(question.functions, mapping, style)


def _checker() -> Any:
    name = "bfcl_eval.constants.model_config"
    if name not in sys.modules:
        try:
            importlib.import_module(name)
        except ImportError:
            stand_in = types.ModuleType(name)
            stand_in.MODEL_CONFIG_MAPPING = {  # type: ignore[attr-defined]
                FC_MODEL.replace("_", "/"): types.SimpleNamespace(underscore_to_dot=True),
                PROMPT_MODEL.replace("_", "/"): types.SimpleNamespace(underscore_to_dot=False),
            }
            sys.modules[name] = stand_in
    return importlib.import_module("bfcl_eval.eval_checker.ast_eval.ast_checker")


def score(question: Question, calls: Sequence[dict[str, Any]] | None, *, malformed: bool, model: str) -> Verdict:
    """Score decoded ``calls`` (BFCL's ``[{name: {arg: value}}]``) as BFCL's eval runner does.

    Args:
        question: The entry.
        calls: The decoded calls, or None when the output could not be decoded as calls.
        malformed: The output tried to call and could not be read (counted apart from "no call").
        model: `FC_MODEL` or `PROMPT_MODEL`.
    """
    utils: Any = _bfcl()
    decoded = list(calls) if calls is not None else None
    called = decoded is not None and not utils.is_empty_output(decoded)
    if question.answer is None:  # irrelevance: any call fails
        if called:
            return Verdict(valid=False, failure="unwanted_call", error_type="irrelevance_error:decoder_success")
        return Verdict(valid=True, failure=None)
    if decoded is None or not called:
        return Verdict(valid=False, failure="malformed" if malformed else "no_call", error_type="ast_decoder")
    checker = _checker()
    language: Any = importlib.import_module("bfcl_eval.constants.enums").Language.PYTHON
    result = checker.ast_checker(question.functions, decoded, question.answer, language, question.category, model)
    if result["valid"]:
        return Verdict(valid=True, failure=None)
    kind: str = result.get("error_type", "")
    failure: Failure = "wrong_name" if ("wrong_func_name" in kind or "wrong_count" in kind) else "wrong_args"
    return Verdict(valid=False, failure=failure, error_type=kind, error=[str(e) for e in result.get("error", [])])
