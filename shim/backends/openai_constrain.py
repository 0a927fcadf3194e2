"""Constrained calls on OpenAI-compatible engines: the request fields each engine reads.

``openai:MODEL@URL?constrain=ENGINE`` picks the form; ``auto`` (the default) asks the server what it is
through ``GET /v1/models``, whose ``owned_by`` each engine fills with its own name:

| ``owned_by`` | engine | form |
|---|---|---|
| ``llamacpp`` | llama.cpp ``llama-server`` (tools/server/server-context.cpp) | ``llama-server`` |
| ``vllm`` | vLLM (vllm/entrypoints/openai/engine/protocol.py ``ModelCard``) | ``xgrammar`` |
| ``sglang`` | SGLang (sglang/srt/entrypoints/openai/protocol.py ``ModelCard``) | ``xgrammar`` |

Anything else (hosted APIs, LM Studio, llama-cpp-python's server) gets no constraint under ``auto``.

- ``llama-server``: ``grammar`` (GBNF, `shim.constrain.gbnf`, opener included), ``grammar_lazy``: true and
  ``grammar_triggers``: ``[{"type": 1, "value": OPENER}]`` (type 1 is ``COMMON_GRAMMAR_TRIGGER_TYPE_WORD``
  in llama.cpp's common/common.h); the server starts the grammar where the word appears. With a forced
  tool choice the grammar is not lazy: the whole reply is calls. Once a call is complete the grammar lets
  the model only stop, so the turn ends with its first call.
- ``xgrammar`` (vLLM, SGLang): ``response_format`` ``{"type": "structural_tag", "structures": [{"begin":
  OPENER, "schema": CALL_SCHEMA, "end": CLOSER}], "triggers": [OPENER]}`` (vLLM docs, "Structured Outputs",
  structural_tag; SGLang takes the same shape): text is free until the trigger, then the call body follows
  the schema. Structural tags cannot force a call, so a forced tool choice is left to the prompt.

A server that answers 400 to these fields (an older build) is asked again without them, and not asked with
them again: constraint degrades, it never refuses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

from shim.constrain.gbnf import call_grammar
from shim.constrain.limits import GrammarUnavailable
from shim.constrain.schema import CallConstraint
from shim.errors import ConfigError

__all__ = ["ENGINES", "ConstrainSetting", "constraint_fields", "engine_from_models", "parse_constrain"]

ConstrainSetting: TypeAlias = Literal["auto", "llama-server", "xgrammar", "off"]
ENGINES: tuple[ConstrainSetting, ...] = ("auto", "llama-server", "xgrammar", "off")
_OWNERS: Mapping[str, ConstrainSetting] = {"llamacpp": "llama-server", "vllm": "xgrammar", "sglang": "xgrammar"}
_TRIGGER_WORD = 1  # COMMON_GRAMMAR_TRIGGER_TYPE_WORD


def parse_constrain(value: str) -> ConstrainSetting:
    """``value`` of ``?constrain=`` as a setting.

    Raises:
        ConfigError: it names no known form.
    """
    if value in ENGINES:
        return value  # type: ignore[return-value]
    raise ConfigError(f"constrain={value!r} in the backend spec is not one of {list(ENGINES)!r}")


def engine_from_models(owners: list[str]) -> ConstrainSetting:
    """The form for a server whose ``/v1/models`` entries name these owners (``off`` when none is known)."""
    for owner in owners:
        if owner in _OWNERS:
            return _OWNERS[owner]
    return "off"


def constraint_fields(engine: ConstrainSetting, constraint: CallConstraint) -> dict[str, Any]:
    """The request body fields that constrain ``constraint``'s calls on ``engine`` (empty for ``off``)."""
    if engine == "llama-server":
        forced = constraint.forced
        try:
            text = call_grammar(constraint, include_opener=True).text
        except GrammarUnavailable:  # the llama extra is not installed: serve unconstrained (logged, noted)
            return {}
        fields: dict[str, Any] = {"grammar": text}
        if not forced:
            fields["grammar_lazy"] = True
            fields["grammar_triggers"] = [{"type": _TRIGGER_WORD, "value": constraint.trigger}]
        return fields
    if engine == "xgrammar":
        structure = {"begin": constraint.trigger, "schema": constraint.call_schema(), "end": constraint.closer}
        return {
            "response_format": {"type": "structural_tag", "structures": [structure], "triggers": [constraint.trigger]}
        }
    if engine == "auto":
        raise ConfigError("the engine must be detected before its constraint fields are built (a shim bug)")
    return {}


def split_spec_url(url: str) -> tuple[str, ConstrainSetting]:
    """Take ``?constrain=...`` off a base URL; other query parameters stay."""
    base, sep, query = url.partition("?")
    if not sep:
        return url, "auto"
    kept: list[str] = []
    setting: ConstrainSetting = "auto"
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key == "constrain":
            setting = parse_constrain(value)
        elif part:
            kept.append(part)
    return (base + "?" + "&".join(kept)) if kept else base, setting
