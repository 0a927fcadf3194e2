"""Constrained calls on embedded llama.cpp: a grammar that switches on at the dialect's opener.

``Llama.generate`` only takes an always-on grammar, so a constrained generation runs its own token loop
with the same samplers, in the same order, as ``Llama._init_sampler``:

- before the opener the model writes freely; the loop watches the text for the opener;
- the token that completes the opener is cut at its end (when it carries more text, that text is dropped
  and the opener's tail re-tokenized), and from there a grammar (`shim.constrain.gbnf`: the body of a call
  of an offered tool, then the closer) picks every token;
- once the closer is out and the body parses, the model writes freely again, and a second opener starts a
  second constrained call;
- with ``tool_choice`` required or named (``forced``), the grammar is on from the first token and the
  reply is nothing but calls.

Why not llama.cpp's own lazy sampler (``llama_sampler_init_grammar_lazy_patterns``): it feeds the grammar
the *whole* token that completes the trigger, and when that token carries text the grammar rejects, llama.cpp
throws a C++ exception that ctypes cannot catch, which aborts the process ("Unexpected empty grammar stack
after accepting piece"). A random-weight model hits that within a few hundred tokens; cutting the token
here cannot.

A grammar llama.cpp's parser rejects (the converter's output is not always within its limits) is replaced
by the loose one (any arguments object), and if that fails too, generation runs unconstrained.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Generator
from typing import Any, Literal

from shim.backends.llamacpp_steer import Steer
from shim.constrain.gbnf import call_grammar
from shim.constrain.schema import CallConstraint

__all__ = ["CallWatch", "ConstrainedSampling", "call_sampling", "grammar_parses"]


def grammar_parses(llm: Any, text: str) -> bool:
    """llama.cpp's GBNF parser accepts ``text`` (llama-cpp-python would otherwise pass a NULL sampler on
    and crash at the first token). Remembered per model: the same tools come with every turn."""
    key = (id(llm._model), text)
    known = _parsed.get(key)
    if known is None:
        llama_cpp: Any = importlib.import_module("llama_cpp")
        sampler = llama_cpp.llama_sampler_init_grammar(llm._model.vocab, text.encode("utf-8"), b"root")
        known = bool(sampler)
        if sampler:
            llama_cpp.llama_sampler_free(sampler)
        if len(_parsed) >= 128:
            _parsed.pop(next(iter(_parsed)))
        _parsed[key] = known
    return known


_parsed: dict[tuple[int, str], bool] = {}


def call_sampling(llm: Any, constraint: CallConstraint, llama_cpp: Any) -> ConstrainedSampling | None:
    """A constrained generation for ``constraint`` on ``llm``, or None when no grammar llama.cpp accepts
    could be made."""
    del llama_cpp  # imported by the caller already; kept in the signature so the import error is theirs
    for loose in (False, True):
        grammar = call_grammar(constraint, all_loose=loose)
        if grammar_parses(llm, grammar.text):
            return ConstrainedSampling(
                grammar.text,
                trigger=grammar.trigger,
                closer=constraint.closer,
                lazy=not constraint.forced,
                steer=constraint.steer if constraint.forced else (),
                copy_from=constraint.copy_from,
                choices=constraint.choices,
            )
    return None


class ConstrainedSampling:
    """One constrained generation's token source; see the module docstring."""

    def __init__(
        self,
        grammar: str,
        *,
        trigger: str,
        closer: str,
        lazy: bool,
        steer: tuple[str, ...] = (),
        copy_from: str = "",
        choices: tuple[tuple[str, tuple[str, ...]], ...] = (),
    ) -> None:
        self.grammar = grammar
        self.trigger = trigger
        self.closer = closer
        self.lazy = lazy
        self.steer = steer
        """Values of the request that further calls are steered toward (`shim.backends.llamacpp_steer`)."""
        self.copy_from = copy_from
        """The request whose spans string values are copied whole from (`shim.backends.llamacpp_steer`)."""
        self.choices = choices
        """The enumerated choices the request names, by parameter."""
        self.budget: int | None = None
        """The reply's token budget, set by the caller: calls are wound up before it ends."""
        self.engaged = not lazy
        """A call was generated under the grammar (for a lazy grammar: the opener appeared)."""

    def tokens(self, llm: Any, prompt_tokens: list[int], **sampling: Any) -> Generator[int, None, None]:
        """Evaluate the prompt and yield sampled tokens until the caller stops (like ``Llama.generate``).

        Args:
            llm: The ``llama_cpp.Llama``.
            prompt_tokens: The prompt.
            **sampling: ``temp`` and the sampling keywords of ``Llama.generate`` (``top_k``, ``min_p``...).
        """
        steer = Steer(
            llm,
            self.steer,
            opener=self.trigger,
            closer=self.closer,
            budget=self.budget,
            forced=not self.lazy,
            request=self.copy_from,
            choices=self.choices,
        )
        free = _chain(llm, None, steer=steer if self.lazy else None, **sampling)
        constrained = _chain(llm, self.grammar, steer=steer, **sampling) if not self.lazy else None
        watch = CallWatch(self.trigger.encode("utf-8"), self.closer)
        try:
            _eval_prompt(llm, prompt_tokens)
            while True:
                token: int = (constrained or free).sample(llm._ctx, -1)
                out = [token]
                if self.lazy and constrained is None:
                    cut = watch.opener_end(llm.detokenize([token]))
                    if cut is not None:
                        self.engaged = True
                        if cut is not True:  # the token runs on past the opener: keep only up to its end
                            out = llm.tokenize(cut, add_bos=False, special=False)
                        constrained = _chain(llm, self.grammar, steer=steer, **sampling)
                elif self.lazy and constrained is not None and watch.closed(llm.detokenize([token])):
                    constrained.close()  # the call is complete: free text again
                    constrained = None
                for item in out:
                    yield item
                    llm.eval([item])
                    steer.feed(llm.detokenize([item]).decode("utf-8", errors="ignore"))
        finally:
            free.close()
            if constrained is not None:
                constrained.close()


def _eval_prompt(llm: Any, tokens: list[int]) -> None:
    """Evaluate the prompt, reusing the cached prefix it shares with the last one (as ``Llama.generate`` does:
    the system prompt with the tools is the same on every turn)."""
    cached: list[int] = list(llm._input_ids[: llm.n_tokens])
    shared = 0
    for a, b in zip(cached, tokens, strict=False):
        if a != b:
            break
        shared += 1
    shared = min(shared, len(tokens) - 1)  # at least one token is evaluated, for fresh logits
    if shared > 0 and llm._ctx.kv_cache_seq_rm(-1, shared, -1):
        llm.n_tokens = shared
        llm.eval(tokens[shared:])
        return
    llm.reset()
    llm.eval(tokens)


def _chain(
    llm: Any,
    grammar: str | None,
    *,
    temp: float,
    steer: Steer | None = None,
    top_k: int = 40,
    top_p: float = 0.95,
    min_p: float = 0.05,
    typical_p: float = 1.0,
    repeat_penalty: float = 1.0,
    frequency_penalty: float = 0.0,
    presence_penalty: float = 0.0,
    mirostat_mode: int = 0,
    mirostat_tau: float = 5.0,
    mirostat_eta: float = 0.1,
) -> Any:
    """A sampler chain like ``Llama._init_sampler``'s, with ``grammar`` (GBNF text) when given."""
    internals: Any = importlib.import_module("llama_cpp._internals")
    grammars: Any = importlib.import_module("llama_cpp.llama_grammar")
    sampler = internals.LlamaSampler()
    sampler.add_penalties(llm.n_vocab(), llm.last_n_tokens_size, repeat_penalty, frequency_penalty, presence_penalty)
    if steer is not None:
        sampler.add_custom(_bonus(steer))
    if grammar is not None:
        sampler.add_grammar(llm._model, grammars.LlamaGrammar.from_string(grammar, verbose=False))
    seed: int = llm._seed
    if temp <= 0.0:
        sampler.add_greedy()
    elif mirostat_mode == 1:
        sampler.add_mirostat(llm.n_vocab(), seed, mirostat_tau, mirostat_eta, 100)
    elif mirostat_mode == 2:
        sampler.add_mirostat_v2(seed, mirostat_tau, mirostat_eta)
    else:
        sampler.add_top_k(top_k)
        sampler.add_typical(typical_p, 1)
        sampler.add_top_p(top_p, 1)
        sampler.add_min_p(min_p, 1)
        sampler.add_temp(temp)
        sampler.add_dist(seed)
    return sampler


def _bonus(steer: Steer) -> Any:
    """A sampler step adding the steer's current bonuses to the logits (token data is still in id order here:
    nothing before it in the chain sorts)."""

    def apply(candidates: Any) -> None:
        if not steer.bias:
            return
        data = candidates.contents.data
        size = candidates.contents.size
        for token, bonus in steer.bias.items():
            if 0 <= token < size and data[token].id == token:
                data[token].logit += bonus

    return apply


class CallWatch:
    """Follows the generated text to tell where a call's opener ends and when the call is complete."""

    def __init__(self, trigger: bytes, closer: str) -> None:
        self._trigger = trigger
        self._closer = closer
        self._tail = b""
        self._body = ""

    def opener_end(self, piece: bytes) -> bytes | Literal[True] | None:
        """None while no opener is complete; True when ``piece`` ends exactly at the opener's end; else
        the part of ``piece`` up to it."""
        text = self._tail + piece
        at = text.find(self._trigger)
        if at < 0:
            self._tail = text[-(len(self._trigger) - 1) :] if len(self._trigger) > 1 else b""
            return None
        self._tail, self._body = b"", ""
        end = at + len(self._trigger) - (len(text) - len(piece))
        return True if end == len(piece) else piece[:end]

    def closed(self, piece: bytes) -> bool:
        """The call body so far, plus ``piece``, ends with the closer after a whole JSON body."""
        self._body += piece.decode("utf-8", errors="ignore")
        if not self._body.rstrip().endswith(self._closer):
            return False
        body = self._body.rstrip()[: -len(self._closer)]
        try:
            json.loads(body)
        except ValueError:
            return False  # the closer's text inside a JSON string: the call goes on
        self._body = ""
        return True
