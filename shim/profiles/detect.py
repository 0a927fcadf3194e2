"""Which profile a model gets: the one place the evidence is weighed, in one order.

1. **override**: ``--profile NAME`` (``shim run / chat / prompt``), ``"profile"`` in the config's ``"shim"``
   object or ``$SHIM_PROFILE``, ``shim serve --profile [ALIAS=]NAME``. Taken as it is.
2. **name**: the model's name (the spec's model part, a GGUF file's name, then the name the engine knows it by:
   GGUF ``general.name``, vLLM's ``root``) against each profile's ``patterns``; the first profile wins.
3. **family**: what the engine reports (Ollama ``details.family`` / ``families``, GGUF ``general.architecture``)
   against each profile's ``families``.
4. **template**: call markers in the model's chat template (``[TOOL_CALLS]`` → mistral, ``<|python_tag|>`` or an
   ``ipython`` role → llama3, ``<start_of_turn>`` → gemma3, DeepSeek's ``tool▁calls▁begin`` token → deepseek...),
   Hermes' bare ``<tool_call>`` last because other families' templates contain it too. When no marker
   matches, the call syntax is derived from the template itself (`shim.profiles.template.from_template`):
   a model nobody here has seen still gets a parser that reads its own format.
5. **default**: `DEFAULT_PROFILE` (no template, or one that renders no call).

Whatever chose it (the override aside), a chat template that can be rendered here (Jinja: GGUF files, Hugging
Face models) also says whether the generation prompt opens ``<think>`` without closing it: then the reply
starts inside reasoning and the profile's ``starts_in_reasoning`` is set (GLM-4.7, Qwen 3.5, Nemotron 3), or
cleared when it does not. Ollama's Go templates are not rendered: their profile keeps its own setting.

The evidence comes from the backend (``await backend.model_info()``, `shim.backends.model_info`); without an
engine to ask (``shim profiles --model`` without ``--detect``, ``shim prompt``) only the name counts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Literal, TypeAlias

import regex
from jinja2 import TemplateError

from shim.backends import BACKEND_KINDS
from shim.backends.base import Backend
from shim.backends.model_info import ModelInfo
from shim.errors import BackendError
from shim.profiles.data import DEFAULT_PROFILE, PROFILES, ModelProfile, get_profile
from shim.profiles.jinja import render_chat
from shim.profiles.template import from_template

__all__ = ["Detection", "Evidence", "detect", "detect_profile", "find_profile", "opens_reasoning"]

logger = logging.getLogger("shim.profiles")

Evidence: TypeAlias = Literal["override", "name", "family", "template", "default"]
"""What chose a profile (see the module docstring for the order)."""

_THINK = ("<think>", "</think>")

_TEMPLATE_ORDER = (*(p for p in PROFILES if p.name != "hermes"), *(p for p in PROFILES if p.name == "hermes"))
"""Profiles in the order their template markers are tried: Hermes' bare ``<tool_call>`` is in Qwen3-Coder's,
GLM's and Nemotron's templates too, so the more specific markers go first."""


@dataclass(frozen=True, kw_only=True)
class Detection:
    """A profile and why it was chosen."""

    profile: ModelProfile
    evidence: Evidence
    detail: str
    """The evidence in words: ``name 'qwen2.5:7b'``, ``family 'qwen2'``, ``template has '[TOOL_CALLS]'``."""
    opens_reasoning: bool | None = None
    """What the chat template said about ``<think>`` at the generation prompt; None: no template, or one that
    cannot be rendered here."""
    complete: bool = True
    """False when the engine was to be asked but could not answer: a later ask may find more."""

    def describe(self) -> str:
        """One line for people: the profile, the evidence, and what the template said about reasoning."""
        text = f"profile {self.profile.name!r}, by {self.detail}"
        if self.opens_reasoning:
            text += "; the template opens <think>, so replies start inside reasoning"
        return text


def find_profile(
    model: str | None, *, family: str | None = None, template: str | None = None, override: str | None = None
) -> ModelProfile:
    """The profile of a model from the evidence given (see `detect`).

    Raises:
        ValueError: ``override`` names no profile.
    """
    info = ModelInfo(family=family.lower(), template=template) if family else ModelInfo(template=template)
    return detect(model, info, override=override).profile


def detect(model: str | None, info: ModelInfo | None = None, *, override: str | None = None) -> Detection:
    """Weigh the evidence in the module docstring's order.

    Args:
        model: the model's name or backend spec (``ollama:qwen2.5:7b``, ``qwen3:8b``, a ``.gguf`` path).
        info: what the engine reported, if it was asked.
        override: a profile name that wins over everything.

    Raises:
        ValueError: ``override`` names no profile.
    """
    if override:
        return Detection(profile=get_profile(override), evidence="override", detail=f"override {override!r}")
    info = info or ModelInfo()
    found = _by_name(model, info) or _by_family(info) or _by_template(info.template) or _derived(info.template)
    if found is None:
        found = Detection(profile=DEFAULT_PROFILE, evidence="default", detail="default (nothing matched)")
    opens = opens_reasoning(info.template) if info.template else None
    if opens is None or opens == found.profile.starts_in_reasoning:
        return replace(found, opens_reasoning=opens)
    profile = replace(found.profile, starts_in_reasoning=opens, thinking=found.profile.thinking or _THINK)
    return replace(found, profile=profile, opens_reasoning=opens)


async def detect_profile(backend: Backend, model: str | None = None, *, override: str | None = None) -> Detection:
    """`detect` with the evidence the backend reports (``model`` defaults to the backend's name). The engine is
    not asked when ``override`` is given; when it cannot answer, the name decides alone.

    Raises:
        ValueError: ``override`` names no profile.
    """
    if override:
        return detect(model or backend.name, override=override)
    try:
        info = await backend.model_info()
    except BackendError as exc:  # the request itself will report the engine's fault, in its own words
        logger.info("could not ask %s about its model (%s); choosing its profile by name", backend.name, exc)
        return replace(detect(model or backend.name), complete=False)
    return detect(model or backend.name, info)


def _by_name(model: str | None, info: ModelInfo) -> Detection | None:
    for name in (_model_name(model or ""), info.name or ""):
        for profile in PROFILES:
            if name and profile.matches(name):
                return Detection(profile=profile, evidence="name", detail=f"name {name!r}")
    return None


def _by_family(info: ModelInfo) -> Detection | None:
    for family in info.all_families:
        for profile in PROFILES:
            if family.lower() in profile.families:
                return Detection(profile=profile, evidence="family", detail=f"family {family!r}")
    return None


def _by_template(template: str | None) -> Detection | None:
    for profile in _TEMPLATE_ORDER if template else ():
        for marker in profile.template_markers:
            if marker in (template or ""):
                return Detection(profile=profile, evidence="template", detail=f"template has {marker!r}")
    return None


def _derived(template: str | None) -> Detection | None:
    if not template or _GO_TEMPLATE.search(template):
        return None
    try:
        profile = from_template(template)
    except ValueError as exc:
        logger.info("no call syntax derived from the chat template (%s)", exc)
        return None
    return Detection(profile=profile, evidence="template", detail="call syntax derived from the chat template")


def _model_name(spec: str) -> str:
    """The model part of a backend spec (``ollama:qwen2.5:7b`` → ``qwen2.5:7b``; a GGUF path's file name; an
    OpenAI spec's URL, which could hold a host named like a family, is dropped)."""
    kind, sep, rest = spec.partition(":")
    # Only a backend kind is stripped: ``qwen3:8b`` is an Ollama model name, not a spec of kind ``qwen3``.
    model = rest if sep and kind in BACKEND_KINDS else spec
    if model.lower().endswith(".gguf"):  # a file: its name says the model, its folders need not
        return model.replace("\\", "/").rsplit("/", 1)[-1]
    return model.split("@", 1)[0] if kind.startswith("openai") else model


# -- does the generation prompt open <think>? ------------------------------------------------------------------

_GO_TEMPLATE = regex.compile(r"\{\{-?\s*(?:range|end|if\s+\.|\.[A-Z$])")
"""Ollama's Go templates (``{{ .Prompt }}``, ``{{- range .Messages }}``): not Jinja, not rendered here."""


def opens_reasoning(template: str) -> bool | None:
    """Whether a Jinja chat template's generation prompt opens ``<think>`` and leaves it open, so the model's
    reply starts inside reasoning.

    The template is rendered (sandboxed) for one user message with and without ``add_generation_prompt``, as
    llama.cpp and Hugging Face render it, with the template's own defaults (no ``enable_thinking``); the
    difference is the generation prompt. None: a Go template, or one that does not render here.
    """
    if _GO_TEMPLATE.search(template):
        return None
    messages = [{"role": "user", "content": "Hello"}]
    try:
        render = render_chat(template)
        with_prompt = render(messages, True)
        without = render(messages, False)
    except (TemplateError, TypeError, ValueError, LookupError, AttributeError) as exc:
        logger.debug("chat template not rendered (%s); its reasoning setting is unknown", exc)
        return None
    shared = 0
    while shared < min(len(with_prompt), len(without)) and with_prompt[shared] == without[shared]:
        shared += 1
    prompt = with_prompt[shared:]
    opened = prompt.rfind("<think>")
    return opened >= 0 and "</think>" not in prompt[opened:]
