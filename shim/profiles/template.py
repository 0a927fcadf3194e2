"""Derive a model's call syntax from its own chat template: `from_template`.

As llama.cpp's autoparser does (``common/chat-diff-analyzer.cpp``, PR 18675), the template is rendered
(sandboxed Jinja, with the helpers Hugging Face templates use) for conversations that differ in one thing,
and the syntax is read from the difference:

1. one user message, with and without the generation prompt: what the model's reply follows;
2. an assistant reply of plain text: what ends a turn;
3. an assistant reply that calls one probe tool, and one that calls two: the call text, cut out of the
   render between the generation prompt and the end of the turn.

In the call text the probe's name, keys and values are found; the text around them is the markup. Where the
name sits inside a JSON object the call is that object; otherwise the name is written bare and the
arguments follow as a JSON object or string, pythonic keywords or key/value parameters. The two-call render
splits the markup into the block's (once) and each call's (repeated), and gives the separator.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import regex
from jinja2 import TemplateError

from shim.parsing import lenient_json
from shim.parsing.call_syntax import CALL_ID, ArgumentsForm, CallSyntax
from shim.profiles.data import DEFAULT_PROFILE, ModelProfile
from shim.profiles.jinja import render_chat

__all__ = ["TemplateProbe", "from_template", "probe_template"]

logger = logging.getLogger("shim.profiles")

_NAME_1 = "shimprobe_alpha"
_NAME_2 = "shimprobe_beta"
_KEY_1 = "shimkey_one"
_KEY_2 = "shimkey_two"
_VAL_1 = "shimval_one"
_VAL_2 = "shimval_two"
_TEXT = "shimtext_reply"
_USER = "shimtext_user"
_USER_NEXT = "shimtext_next"
_IDS = ("abcDEF123", "ghiJKL456")  # nine letters and digits: Mistral's templates refuse other ids

_REASONING = regex.compile(
    r"^\s*(?P<open><(?P<tag>think|thinking|reasoning|thought|seed:think)>|\[THINK\]|<\|begin_of_thought\|>)"
    r"(?P<body>\s*)(?P<close></(?P=tag)>|\[/THINK\]|<\|end_of_thought\|>)\s*"
)
_REASONING_CLOSE = regex.compile(r"^\s*(?:</(?:think|thinking|reasoning|thought|seed:think)>|\[/THINK\])\s*")
_REASONING_PAIRS = (
    ("<think>", "</think>"),
    ("<seed:think>", "</seed:think>"),
    ("[THINK]", "[/THINK]"),
    ("<thinking>", "</thinking>"),
    ("<reasoning>", "</reasoning>"),
)


def _tool(name: str) -> dict[str, Any]:
    properties = {_KEY_1: {"type": "string", "description": "a probe"}, _KEY_2: {"type": "string"}}
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": "Probe tool",
            "parameters": {"type": "object", "properties": properties, "required": [_KEY_1]},
        },
    }


PROBE_TOOLS: list[dict[str, Any]] = [_tool(_NAME_1), _tool(_NAME_2)]
"""The tools every probe conversation offers."""


@dataclass(frozen=True)
class TemplateProbe:
    """How one template renders: what the parts of a conversation look like (`probe_template`)."""

    render: Callable[[list[dict[str, Any]], bool], str]
    """Renders messages (with the probe tools), with or without the generation prompt."""
    generation_prompt: str
    """What the rendered prompt ends with for the model's reply (the reply's text follows it)."""
    arguments_as_string: bool
    """The template wants ``function.arguments`` as a JSON string rather than an object."""
    follow_up: bool = False
    """The reply is rendered before a further user message: the template treats a last assistant message
    as a prefill to continue and leaves its calls out."""

    def assistant_part(self, calls: list[tuple[str, dict[str, Any]]], content: str = "") -> str:
        """What the model writes for a reply making ``calls``: the render after the generation prompt, up
        to the end of the turn.

        Raises:
            ValueError: the template does not render such a reply.
        """
        conversation = _conversation(calls, content, as_string=self.arguments_as_string, follow_up=self.follow_up)
        full = _safe(self.render, conversation, False)
        prompt = _safe(self.render, conversation[:1], True)
        start = _marker_start(full, _common_prefix(full, prompt))
        text = _safe(self.render, _conversation([], _TEXT, as_string=False, follow_up=self.follow_up), False)
        end = len(full) - _turn_end(full, text)
        return full[start:end]


def _conversation(
    calls: list[tuple[str, dict[str, Any]]], content: str, *, as_string: bool, follow_up: bool = False
) -> list[dict[str, Any]]:
    reply: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        reply["tool_calls"] = [
            {
                "id": _IDS[i % 2],
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False) if as_string else args},
            }
            for i, (name, args) in enumerate(calls)
        ]
    after = [{"role": "user", "content": _USER_NEXT}] if follow_up else []
    return [{"role": "user", "content": _USER}, reply, *after]


def _safe(render: Callable[[list[dict[str, Any]], bool], str], messages: list[dict[str, Any]], gen: bool) -> str:
    try:
        return render(messages, gen)
    except (TemplateError, TypeError, ValueError, LookupError, AttributeError, RecursionError) as exc:
        raise ValueError(f"the template does not render: {type(exc).__name__}: {exc}") from None


def _common_prefix(a: str, b: str) -> int:
    n = 0
    limit = min(len(a), len(b))
    while n < limit and a[n] == b[n]:
        n += 1
    return n


def _marker_start(text: str, at: int) -> int:
    """``at``, or the start of the marker it cuts in two (``<|assistant|><`` + ``/think>``)."""
    opened = max(text.rfind("<", 0, at), text.rfind("[", 0, at))
    closed = max(text.rfind(">", 0, at), text.rfind("]", 0, at))
    return opened if opened > closed else at


def _tidy_prefix(s: str) -> str:
    """A common prefix that must end between markers: cut before a marker it leaves open."""
    return s[: _marker_start(s, len(s))]


def _tidy_suffix(s: str) -> str:
    """A common suffix that must begin between markers: drop the end of a marker it begins inside."""
    first = regex.search(r"[<>\[\]]", s)
    if first is not None and first.group() in ">]":
        return s[first.end() :]
    return s


def _turn_end(full: str, text_reply: str) -> int:
    """How many characters at the end of ``full`` end the turn (as the plain-text reply ends it): the
    longest common tail that does not cut a marker in two (``<|eom_id|>`` against ``<|eot_id|>``)."""
    at = text_reply.rfind(_TEXT)
    tail = text_reply[at + len(_TEXT) :] if at >= 0 else ""
    n = 0
    limit = min(len(full), len(tail))
    while n < limit and full[-1 - n] == tail[-1 - n]:
        n += 1
    while 0 < n < len(tail):
        before, first = full[-n - 1], full[-n]
        if before in ">]}\n \t)" or (first in "<[\n \t" and not before.isalnum()):
            break
        n -= 1
    return n


def probe_template(template: str, *, tools: list[dict[str, Any]] | None = None) -> TemplateProbe:
    """Compile ``template`` and find how it renders a reply (offering ``tools``, default: the probe tools).

    Raises:
        ValueError: the template does not compile, or does not render a tool call (the message says why).
    """
    render = render_chat(template, PROBE_TOOLS)
    bare = _safe(render, [{"role": "user", "content": _USER}], False)
    prompt = _safe(render, [{"role": "user", "content": _USER}], True)
    generation = prompt[_common_prefix(prompt, bare) :]
    failure: ValueError | None = None
    for follow_up, as_string in ((False, False), (False, True), (True, False)):
        probe = TemplateProbe(render, generation, as_string, follow_up)
        try:
            part = probe.assistant_part([(_NAME_1, {_KEY_1: _VAL_1})])
        except ValueError as exc:
            failure = failure or exc
            continue
        if _NAME_1 in part and _KEY_1 in part:
            return probe if tools is None else replace(probe, render=render_chat(template, tools))
    if failure is not None:
        raise failure
    raise ValueError("the template does not render tool calls (the call's name or arguments are not in its output)")


def from_template(template: str) -> ModelProfile:
    """A profile whose parser reads calls as the chat ``template`` writes them.

    Raises:
        ValueError: the template cannot render a call (the message names the reason).
    """
    probe = probe_template(template)
    one = probe.assistant_part([(_NAME_1, {_KEY_1: _VAL_1, _KEY_2: _VAL_2})])
    try:
        two = probe.assistant_part(
            [(_NAME_1, {_KEY_1: _VAL_1, _KEY_2: _VAL_2}), (_NAME_2, {_KEY_1: _VAL_1, _KEY_2: _VAL_2})]
        )
    except ValueError:
        two = None
    thinking = _thinking(template, probe.generation_prompt + one)
    opens = thinking is not None and _opens(probe.generation_prompt, thinking)
    one = _strip_reasoning(_ids_out(one))
    two = _strip_reasoning(_ids_out(two)) if two is not None else None
    syntax = _syntax(one, two if two is not None and _NAME_2 in two else None)
    return replace(
        DEFAULT_PROFILE,
        name="template",
        quirks=("call syntax derived from the model's chat template",),
        syntax=syntax,
        thinking=thinking,
        starts_in_reasoning=opens,
    )


def _ids_out(text: str) -> str:
    """The probe's call ids written as the placeholder the reader matches any id with."""
    for call_id in _IDS:
        text = text.replace(call_id, CALL_ID)
    return text


def _thinking(template: str, sample: str) -> tuple[str, str] | None:
    for pair in _REASONING_PAIRS:
        if pair[0] in sample or (pair[0] in template and pair[1] in template):
            return pair
    return None


def _opens(generation_prompt: str, thinking: tuple[str, str]) -> bool:
    at = generation_prompt.rfind(thinking[0])
    return at >= 0 and thinking[1] not in generation_prompt[at:]


def _strip_reasoning(part: str) -> str:
    """The call text without the empty reasoning block (or the closer of the one the prompt opened) that a
    template writes before it."""
    found = _REASONING.match(part) or _REASONING_CLOSE.match(part)
    return part[found.end() :] if found else part


# -- reading the call text -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Unit:
    """Where one call's core (its JSON object, or its name through its arguments) sits in a call text."""

    start: int
    end: int
    name_close: str = ""
    arguments: ArgumentsForm = "json"
    params: tuple[str, str, str, str, str] = ("", "", "", "", "")


def _syntax(one: str, two: str | None) -> CallSyntax:
    unit = _unit(one, _NAME_1)
    if unit is None:
        raise ValueError(f"the template's call is written in a form not understood here: {one.strip()[:200]!r}")
    pre, post = one[: unit.start], one[unit.end :]
    head, tail, sep = pre, post, ""
    if two is not None:
        first = _unit(two, _NAME_1)
        second = _unit(two, _NAME_2, after=first.end if first else 0)
        if first is not None and second is not None and first.start == unit.start:
            mid = two[first.end : second.start]
            tail = _tidy_prefix(_lcp(mid, post))
            head = _tidy_suffix(_lcs(mid[len(tail) :], pre))
            sep = mid[len(tail) : len(mid) - len(head)]
            if head.strip() == "" and pre.strip() and mid.strip() == tail.strip() + sep.strip():
                head = ""
    name_at = "markup"
    if unit.arguments == "json" and _is_json_unit(one, unit):
        name_at = "key" if unit.name_close == ":" else "json"
    p_open, p_key, p_close, p_sep, p_quote = unit.params
    return CallSyntax(
        name_at=name_at,
        arguments=unit.arguments,
        block_open=pre[: len(pre) - len(head)].strip() if head else pre.strip(),
        call_open=head.strip() if head else "",
        call_close=tail.strip() if tail else "",
        block_close=post[len(tail) :].strip(),
        separator=sep.strip(),
        name_close=unit.name_close if name_at == "markup" else "",
        param_open=p_open.strip(),
        param_key_close=p_key.strip(),
        param_close=p_close.strip(),
        param_separator=p_sep.strip(),
        param_quote=p_quote.strip(),
    )


def _lcp(a: str, b: str) -> str:
    return a[: _common_prefix(a, b)]


def _lcs(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return a[len(a) - n :] if n else ""


def _is_json_unit(text: str, unit: _Unit) -> bool:
    return text[unit.start : unit.start + 1] == "{"


def _unit(text: str, name: str, *, after: int = 0) -> _Unit | None:
    at = text.find(name, after)
    if at < 0:
        return None
    quoted = text[at - 1 : at] in "\"'" and text[at + len(name) : at + len(name) + 1] in "\"'"
    if quoted:  # the name is a JSON string: the call is the outermost object around it that parses
        obj = _enclosing_object(text, at, name)
        if obj is not None:
            as_key = regex.match(r'"\s*:\s*\{', text[at + len(name) :]) is not None
            return _Unit(obj[0], obj[1], name_close=":" if as_key else "")
    end_name = at + len(name)
    key = text.find(_KEY_1, end_name)
    if key < 0:
        return None
    between = text[end_name:key]
    brace = between.find("{")
    if brace >= 0:
        decoded = lenient_json.value_at(text, end_name + brace)
        if decoded is not None and isinstance(decoded[0], dict):
            return _Unit(at, decoded[1], name_close=between[:brace], arguments="json")
    quote = between.find('"')
    if quote >= 0:
        decoded = lenient_json.value_at(text, end_name + quote)
        if decoded is not None and isinstance(decoded[0], str) and _KEY_1 in decoded[0]:
            return _Unit(at, decoded[1], name_close=between[:quote], arguments="json_string")
    if between.rstrip().endswith("(") and f"{_KEY_1}=" in text[key : key + len(_KEY_1) + 1]:
        close = text.find(")", key)
        if close >= 0:
            return _Unit(at, close + 1, name_close=between, arguments="pythonic")
    return _params_unit(text, at, end_name, key)


def _params_unit(text: str, at: int, end_name: int, key1: int) -> _Unit | None:
    v1 = text.find(_VAL_1, key1)
    key2 = text.find(_KEY_2, v1)
    v2 = text.find(_VAL_2, key2)
    if min(v1, key2, v2) < 0:
        return None
    before_1 = text[end_name:key1]  # name_close + param_open
    key_close = text[key1 + len(_KEY_1) : v1]
    mid = text[v1 + len(_VAL_1) : key2]  # param_close + separator + param_open
    key_close_2 = text[key2 + len(_KEY_2) : v2]
    if key_close.strip() != key_close_2.strip():
        return None
    rest = text[v2 + len(_VAL_2) :]
    param_open = _tidy_suffix(_lcs(mid, before_1)).lstrip()
    if not param_open.strip():
        param_open = ""
    param_close = _tidy_prefix(_lcp(mid[: len(mid) - len(param_open)], rest)).rstrip()
    separator = mid[len(param_close) : len(mid) - len(param_open)]
    name_close = before_1[: len(before_1) - len(param_open)]
    if not param_open.strip() and not key_close.strip():
        return None
    quote = ""
    if param_close.strip() and key_close.endswith(param_close) and len(key_close) > len(param_close):
        quote, key_close, param_close = param_close, key_close[: -len(param_close)], ""
    closer = param_close or quote
    end = v2 + len(_VAL_2) + rest.find(closer) + len(closer) if closer else v2 + len(_VAL_2)
    return _Unit(
        at,
        end,
        name_close=name_close,
        arguments="params",
        params=(param_open, key_close, param_close, separator, quote),
    )


def _enclosing_object(text: str, at: int, name: str) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    start = text.rfind("{", 0, at)
    while start >= 0:
        decoded = lenient_json.value_at(text, start)
        if decoded is not None and decoded[1] > at and isinstance(decoded[0], dict):
            best = (start, decoded[1])
        start = text.rfind("{", 0, start)
    return best
