"""Model profiles as data: facts about each model family (how a model is matched to one: `shim.profiles.detect`).

A `ModelProfile` links the two halves that used to know nothing of each other: the call syntax the prompt
teaches (a `shim.prompting.dialects.PromptDialect`, chosen so a model is asked in the format it was trained
on) and the reader rows the parser tries first (names of rows in `shim.parsing.readers.DEFAULT_DIALECTS`).
It also records the family's thinking tags, whether its template opens a reasoning block before the model
writes (so the stream starts inside it), its stop sequences and known quirks.

A profile only reorders the parser's table, it never removes a row: models drift from their trained format
(a Qwen writes a bare JSON object, a Llama a ``<function=…>`` tag), and a call written in any family's
syntax must still be read. A model nobody knows gets `DEFAULT_PROFILE`: shim's own ``<function_call>``
prompt and the table in its own order, exactly as without profiles.

Adding a family: one `ModelProfile` in ``PROFILES``, before any profile whose patterns would also match its
names (the first match wins). How a model is matched to a profile, and in which order the evidence counts
(override, name, family, chat template, default), is `shim.profiles.detect`'s docstring.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeAlias

import regex

from shim.backends.base import MAX_STOP, GenerationOptions, merge_stop
from shim.constrain.turn import Bounds
from shim.ids import IdGenerator
from shim.parsing.call_syntax import CallSyntax
from shim.parsing.readers import DEFAULT_DIALECTS, Dialect
from shim.parsing.readers.derived import rows
from shim.parsing.stream import StreamParser, ToolsArg
from shim.relevance import MATCH_THRESHOLD

__all__ = ["DEFAULT_PROFILE", "MAX_STOP", "PROFILES", "ModelProfile", "get_profile", "merge_stop"]

TurnOptions: TypeAlias = "GenerationOptions | Callable[[int], GenerationOptions] | None"
"""Sampling options as the agent takes them: fixed, or a function of the turn number."""


@dataclass(frozen=True, kw_only=True)
class ModelProfile:
    """What shim knows about one model family."""

    name: str
    """Short name used on the command line (``--profile``) and in the config (``shim.profile``)."""
    dialect: str
    """The prompt dialect (`shim.prompting.dialects.DIALECTS`) that teaches the family's own call format."""
    readers: tuple[str, ...] = ()
    """Parser rows (``DEFAULT_DIALECTS`` names) tried first, in this order; every other row follows."""
    patterns: tuple[str, ...] = ()
    """Case-insensitive regular expressions searched in the model name (``qwen2.5:7b``, a GGUF file name)."""
    families: tuple[str, ...] = ()
    """Ollama ``details.family`` / GGUF ``general.architecture`` values that mean this family."""
    thinking: tuple[str, str] | None = None
    """The tags around the family's reasoning (``("<think>", "</think>")``), or None."""
    starts_in_reasoning: bool = False
    """The chat template opens the reasoning block itself, so the output starts inside it."""
    stop: tuple[str, ...] = ()
    """Stop sequences the family's template ends a turn with."""
    quirks: tuple[str, ...] = ()
    """Known deviations from the trained format, for people reading ``shim profiles``."""

    syntax: CallSyntax | None = None
    """The call syntax read from the model's chat template (`shim.profiles.from_template`); its reader is
    tried before every other row."""

    template_markers: tuple[str, ...] = ()
    """Strings whose presence in the model's chat template means this family's call syntax (``[TOOL_CALLS]``);
    the template is evidence only when neither the name nor the family decided (`shim.profiles.detect`)."""

    call_when_matched: float | None = None
    """For a model too small to decide when to call: with ``tool_choice`` auto, a user request whose words match
    an offered tool at this score (`shim.relevance`) gets a forced call, any other is the model's to answer.
    None: the model decides (as every model that can does)."""
    max_calls_per_turn: int | None = None
    """At most this many calls in one reply, whatever the client asked: the reply ends at the last one, and a
    forced reply's grammar allows no more. None: no bound. Whatever the bound, a call repeating one already
    made in the reply ends it (`shim.agent`)."""
    further_calls_same_tool: bool = False
    """A reply's further calls must name the tool of its first: one naming another tool ends the reply and is
    not made (a small model's second call to another offered tool is a wrong one; the same tool with other
    values is how it asks for several things)."""
    several_calls_when_asked: bool = False
    """A reply holds one call unless the user's request asks for several things
    (`shim.request_values.asks_for_several`), up to ``max_calls_per_turn``: a small model's second call to a
    request that asks for one thing is a wrong one."""
    steer_further_calls: bool = False
    """In a forced reply, steer the calls after the first toward the values of the user's request that no call
    has used yet (`shim.request_values`; engines that can: embedded llama.cpp). A small model otherwise copies
    its first call's values into the next."""
    copy_request_spans: bool = False
    """In a constrained call, a string value that starts a span of the user's request (a place with its region,
    an address) is steered to copy it whole, and an enumerated value to the choice the request names
    (`shim.request_values`; engines that can: embedded llama.cpp). A small model otherwise stops a place at its
    first comma and picks an enumeration's first choice."""
    ground_matched_calls: bool = False
    """A call forced because the request's words match a tool (``call_when_matched``) whose required values the
    request does not hold (`shim.request_values.grounded`) is not made: the turn is asked again, and the model
    answers as it likes. A small model fills a tool on the request's subject with values it makes up."""
    call_bounds: Bounds | None = None
    """The most characters of a free string and items of an array a constrained call may write (where the
    tool's schema sets no smaller bound): a model that repeats itself inside a value then still finishes its
    call (`shim.constrain.turn.Bounds`). None: only the schema's own bounds."""

    @property
    def rule(self) -> str:
        """How the profile is detected, in words."""
        parts = [f"name ~ {' | '.join(self.patterns)}"] if self.patterns else []
        parts += [f"family {' | '.join(self.families)}"] if self.families else []
        parts += [f"template has {' | '.join(self.template_markers)}"] if self.template_markers else []
        parts += ["call syntax derived from the chat template"] if self.syntax is not None else []
        return "; ".join(parts) or "when nothing else matches"

    def options(self, options: TurnOptions) -> TurnOptions:
        """``options`` (or, for a function of the turn number, each turn's) with the family's stop sequences as
        ``family_stop`` (the backend caps them with its own, `shim.backends.base.stop_sequences`); returned as
        they are when the family has none."""
        if not self.stop:
            return options
        if callable(options):
            per_turn = options
            return lambda turn: self._with_stop(per_turn(turn))
        return self._with_stop(options)

    def _with_stop(self, options: GenerationOptions | None) -> GenerationOptions:
        base = options or GenerationOptions()
        return replace(base, family_stop=self.stop)

    def parser_dialects(self) -> list[Dialect] | None:
        """The parser's rows: the preferred ones first, then the rest of the table in its order (None: the table
        as it is, which keeps the default behaviour and any later `register_dialect` row)."""
        derived = rows(self.syntax) if self.syntax is not None else []
        if not self.readers and not derived:
            return None
        by_name = {d.name: d for d in DEFAULT_DIALECTS}
        first = [by_name[n] for n in self.readers if n in by_name]
        return derived + first + [d for d in DEFAULT_DIALECTS if d.name not in self.readers]

    def parser(self, tools: ToolsArg = None, *, ids: IdGenerator | None = None) -> StreamParser:
        """A `StreamParser` for this family's output (every family is still read)."""
        return StreamParser(tools, ids=ids, dialects=self.parser_dialects(), in_reasoning=self.starts_in_reasoning)

    def matches(self, model: str) -> bool:
        """Whether ``model`` (a name, a backend spec or a file name) belongs to this family."""
        return any(regex.search(p, model, regex.IGNORECASE) for p in self.patterns)


_THINK = ("<think>", "</think>")

SMALL_MODEL_CALLS = 4
"""The bound on calls in one reply for the small models' profiles: BFCL's parallel questions ask for two to
four calls."""

SMALL_MODEL_BOUNDS = Bounds(string=100, items=10)
"""What one call of the small models' profiles may write: strings of at most 100 characters and arrays of at
most 10 items. In BFCL's expected answers (every single-turn category) 99.9% of string values are at most 96
characters and 99.5% of arrays at most 10 items; SmolLM2 went past both only when it looped (a case number
string that ran on with the rest of its call, a list of one show name repeated) until the 160-token limit."""

DEFAULT_PROFILE = ModelProfile(
    name="default",
    dialect="function_call",
    quirks=("shim's own <function_call> format, taught from scratch; every family's syntax is still read",),
)
"""The profile of a model nobody knows: shim's own dialect, the parser's table in its own order."""

PROFILES: tuple[ModelProfile, ...] = (
    ModelProfile(
        name="hermes",
        dialect="tool_call",
        readers=("tool_call",),
        patterns=(r"hermes",),
        template_markers=("<tool_call>",),
        stop=("<|im_end|>",),
        quirks=("Hermes fine-tunes of Llama or Mistral are found here first: they were trained on <tool_call>",),
    ),
    ModelProfile(
        name="qwen3-coder",
        dialect="tool_call",
        readers=("qwen_xml", "tool_call"),
        patterns=(r"qwen3[-_.]?coder",),
        template_markers=("<parameter=",),
        stop=("<|im_end|>",),
        quirks=(
            "trained on <tool_call><function=NAME><parameter=K>…; shim's prompt asks for Hermes JSON in <tool_call>, "
            "which it also follows; no XML-parameter prompt template yet",
            "often drops the <tool_call> opener or a </parameter> closer",
        ),
    ),
    ModelProfile(
        name="qwen",
        dialect="tool_call",
        readers=("tool_call", "think"),
        patterns=(r"qwen[-_.]?2\.5", r"qwen[-_.]?3", r"qwq"),
        families=("qwen2", "qwen3", "qwen3moe"),
        thinking=_THINK,
        stop=("<|im_end|>",),
        quirks=("Qwen 3 thinks in <think> before answering unless /no_think",),
    ),
    ModelProfile(
        name="llama4",
        dialect="tool_call",
        readers=("llama4_python", "llama4_call", "pythonic"),
        patterns=(r"llama[-_.]?4",),
        families=("llama4",),
        stop=("<|eot|>", "<|eom|>"),
        quirks=(
            "trained on a pythonic list in <|python_start|>; no pythonic prompt template yet (nearest: Hermes JSON)",
        ),
    ),
    ModelProfile(
        name="smollm",
        dialect="function_call_small",
        readers=("function_call",),
        patterns=(r"smollm2?[-_.: ]?(135|360)m",),
        stop=("<|im_end|>",),
        call_when_matched=MATCH_THRESHOLD,
        max_calls_per_turn=SMALL_MODEL_CALLS,
        further_calls_same_tool=True,
        call_bounds=SMALL_MODEL_BOUNDS,
        steer_further_calls=True,
        copy_request_spans=True,
        ground_matched_calls=True,
        several_calls_when_asked=True,
        quirks=(
            "no tools in its ChatML template and never writes a call unasked; too small to decide when to call "
            "(its own signals measured at chance): shim calls when the request's words match a tool (shim.relevance), "
            "and takes such a call back when the request holds none of its required values",
            "a second call in the same reply repeats the first or calls a wrong tool: a repeat or another tool ends "
            f"the reply, and it holds at most {SMALL_MODEL_CALLS} calls",
            "one call unless the request asks for several things; then greedy decoding copies the first call's "
            "values into the next, so further calls are steered toward the request's unused values, in the places "
            "of the call before, and the reply toward its end once every value the request names is used",
            "stops a place at its first comma and picks an enumeration's first choice: string values are steered to "
            "copy the request's spans whole, enumerations to the choice the request names",
            "loops inside a value until the token limit: strings and arrays are bounded in the grammar, and a "
            "call is wound up before the budget ends",
        ),
    ),
    ModelProfile(
        name="llama3",
        dialect="tool_call",
        readers=("python_tag", "pythonic", "pythonic_list_inline", "bare_json", "qwen_xml"),
        patterns=(r"llama[-_.]?3(\.[123])?",),
        template_markers=("<|python_tag|>", "ipython"),
        # No family: GGUF/Ollama "llama" is an architecture that TinyLlama, SmolLM and many fine-tunes share with
        # Llama 3, whatever chat format they were trained on; the template's <|python_tag|> / ipython says more.
        stop=("<|eot_id|>", "<|eom_id|>"),
        quirks=(
            '3.1/3.3 write a bare {"name", "parameters"} object; 3.2 a pythonic [f(x=1)] list; '
            "no pythonic prompt template yet (nearest: Hermes JSON, which they follow)",
            "3.1 sometimes writes <function=NAME>{…}</function>",
        ),
    ),
    ModelProfile(
        name="mistral",
        dialect="mistral",
        readers=("mistral",),
        patterns=(r"mistral", r"devstral", r"ministral", r"magistral", r"mixtral", r"codestral"),
        template_markers=("[TOOL_CALLS]",),
        families=("mistral", "mistral3"),
        stop=("</s>",),
        quirks=("Mistral Small 3.2+ writes [TOOL_CALLS]NAME[ARGS]{…} instead of the JSON list",),
    ),
    ModelProfile(
        name="gemma4",
        dialect="function_call",
        readers=("gemma4", "gemma4_thought", "function_gemma", "gemma4_stripped"),
        patterns=(r"gemma[-_.]?4", r"functiongemma"),
        template_markers=("<|tool_call>",),
        families=("gemma4",),
        quirks=("trained on <|tool_call>call:NAME{…}<tool_call|>; no prompt template of that form yet",),
    ),
    ModelProfile(
        name="gemma3-270m",
        dialect="function_call_small",
        readers=("tool_code", "tool_code_call", "pythonic"),
        patterns=(r"gemma[-_. ]?3[-_.: ]?270m",),
        template_markers=(),
        stop=("<end_of_turn>",),
        call_when_matched=MATCH_THRESHOLD,
        max_calls_per_turn=SMALL_MODEL_CALLS,
        further_calls_same_tool=True,
        call_bounds=SMALL_MODEL_BOUNDS,
        steer_further_calls=True,
        copy_request_spans=True,
        ground_matched_calls=True,
        several_calls_when_asked=True,
        quirks=(
            "too small to decide when to call: shim calls when the request's words match a tool (shim.relevance)",
            "further calls in a reply as SmolLM2's: the first call's tool only, no repeats, a bound, one call "
            "unless several things are asked, steered toward unused values; bounded values",
            "the base (pretrained) model has no chat template and repeats its prompt",
        ),
    ),
    ModelProfile(
        name="gemma3",
        dialect="function_call",
        readers=("tool_code", "tool_code_call", "pythonic"),
        patterns=(r"gemma[-_.]?3",),
        template_markers=("<start_of_turn>",),
        families=("gemma3",),
        stop=("<end_of_turn>",),
        quirks=("no native tool format; often answers with a ```tool_code fence of NAME(k=v) lines",),
    ),
    ModelProfile(
        name="phi4",
        dialect="function_call",
        readers=("phi4_functools", "phi4_functools_line"),
        patterns=(r"phi[-_.]?4",),
        families=("phi3", "phi4"),
        stop=("<|end|>",),
        quirks=("trained on functools[{…}]; needs offered tools to read it",),
    ),
    ModelProfile(
        name="deepseek",
        dialect="function_call",
        readers=("deepseek", "deepseek_call", "think"),
        patterns=(r"deepseek",),
        template_markers=("<｜tool▁calls▁begin｜>", "<|tool▁calls▁begin|>"),  # noqa: RUF001 (DeepSeek's full-width bars)
        families=("deepseek2", "deepseek3"),
        thinking=_THINK,
        quirks=(
            "R1 and V3.1 thinking: the template opens <think>, but engines often strip it; "
            "use a custom profile with starts_in_reasoning when yours does not",
            "trained on its own tool-call special tokens; writes fenced JSON when asked in text",
        ),
    ),
    ModelProfile(
        name="glm",
        dialect="tool_call",
        readers=("glm", "tool_call", "think"),
        patterns=(r"glm",),
        template_markers=("<arg_key>",),
        families=("glm4", "glm4moe"),
        thinking=_THINK,
        quirks=("trained on <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>; asked in Hermes JSON",),
    ),
    ModelProfile(
        name="kimi",
        dialect="function_call",
        readers=("kimi_k2", "kimi_k2_call"),
        patterns=(r"kimi",),
        template_markers=("<|tool_calls_section_begin|>",),
        quirks=("trained on <|tool_calls_section_begin|> tokens; no prompt template of that form",),
    ),
    ModelProfile(
        name="granite",
        dialect="tool_call",
        readers=("granite", "tool_call"),
        patterns=(r"granite",),
        template_markers=("<|tool_call|>",),
        families=("granite", "granitemoe", "granitehybrid"),
        quirks=("trained on <|tool_call|>[{…}]; follows Hermes <tool_call> when asked",),
    ),
    ModelProfile(
        name="gpt-oss",
        dialect="function_call",
        readers=("harmony", "harmony_stripped"),
        patterns=(r"gpt[-_.]?oss",),
        template_markers=("<|channel|>",),
        families=("gptoss", "gpt-oss"),
        quirks=("Harmony channels; engines often strip the <|channel|> tokens, leaving 'commentary to=…'",),
    ),
)
"""Every known family, in detection order (the first whose patterns match wins)."""

_BY_NAME = {p.name: p for p in (*PROFILES, DEFAULT_PROFILE)}


def get_profile(name: str) -> ModelProfile:
    """The profile called ``name``.

    Raises:
        ValueError: no profile has that name (the message lists the known ones).
    """
    try:
        return _BY_NAME[name.lower()]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; known profiles: {', '.join(sorted(_BY_NAME))}") from None
