"""``llama-cpp:PATH.gguf``: a GGUF model run in-process by llama-cpp-python.

The model is loaded once per process (cached by path and load settings) and shared by every backend made
for it; generations on one model take turns. The prompt is built with the chat template stored in the
GGUF (``tokenizer.chat_template``), or a named llama-cpp-python chat format when the file has none.

Generation runs token by token in a worker thread (llama.cpp blocks). This module, not llama-cpp-python,
turns tokens into text so that it can: hold back bytes of a UTF-8 character split across tokens, hold back
text that may be the start of a stop sequence, count tokens exactly, and stop the engine as soon as the
consumer stops reading (the token generator is simply not resumed, then closed). A stream that is left
unread without being closed keeps the model busy until it is garbage-collected: use ``async with``.
"""

from __future__ import annotations

import atexit
import codecs
import importlib
import threading
from collections.abc import AsyncGenerator, Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread

from shim.backends.base import (
    BaseBackend,
    Completion,
    FinishReason,
    GenerationOptions,
    StreamItem,
    StructuredKind,
    Usage,
    check_extras,
    import_sdk,
    stop_sequences,
)
from shim.backends.llamacpp_grammar import ConstrainedSampling, call_sampling
from shim.backends.messages import text_messages
from shim.backends.model_info import ModelInfo
from shim.errors import BackendError, BackendResponseError, ConfigError
from shim.types import Message

__all__ = ["LlamaCppBackend", "check_gguf_path"]

_SAMPLING_EXTRAS = frozenset(
    {
        "top_k",
        "top_p",
        "min_p",
        "typical_p",
        "repeat_penalty",
        "frequency_penalty",
        "presence_penalty",
        "mirostat_mode",
        "mirostat_tau",
        "mirostat_eta",
    }
)
"""Keys of `GenerationOptions.extra` passed to ``Llama.generate``."""


def check_gguf_path(path: str | Path) -> Path:
    """Return ``path`` resolved if it is a readable GGUF file.

    Raises:
        ConfigError: it does not exist, is not a file, or does not start with the GGUF magic bytes.
    """
    file = Path(path).expanduser()
    if not file.exists():
        raise ConfigError(f"model file {str(file)!r} does not exist; give the path to a .gguf file")
    if not file.is_file():
        raise ConfigError(f"model path {str(file)!r} is a directory; give the path to a .gguf file inside it")
    try:
        with file.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ConfigError(f"cannot read model file {str(file)!r}: {exc}") from None
    if magic != b"GGUF":
        raise ConfigError(
            f"{str(file)!r} is not a GGUF model (it starts with {magic!r}, not b'GGUF'); llama.cpp loads "
            "only .gguf files: download a GGUF build of the model or convert it with llama.cpp's "
            "convert_hf_to_gguf.py"
        )
    return file.resolve()


@dataclass
class _LoadedModel:
    llm: Any
    """The ``llama_cpp.Llama``."""
    format_prompt: Callable[[list[dict[str, str]]], tuple[str, list[str], bool]]
    """messages -> (prompt text, the template's stop strings, whether the text already has BOS)."""
    lock: anyio.Lock
    """One generation at a time: a llama.cpp context holds one sequence."""


_models: dict[tuple[Path, int, int, str | None], _LoadedModel] = {}
_load_lock = threading.Lock()


@atexit.register
def _close_models() -> None:
    # Free the models while llama_cpp's module globals still exist; freeing them in Llama.__del__ during
    # interpreter teardown fails noisily ("'NoneType' object is not callable").
    for loaded in _models.values():
        loaded.llm.close()
    _models.clear()


class LlamaCppBackend(BaseBackend):
    """An embedded GGUF model; see the module docstring."""

    extra_keys = _SAMPLING_EXTRAS
    """The `GenerationOptions.extra` keys it takes (llama.cpp sampling parameters)."""
    structured_output: StructuredKind | None = "grammar"
    """How this engine produces a structured answer itself (`shim.constrain.structured`)."""

    def __init__(
        self,
        path: str | Path,
        *,
        n_ctx: int = 4096,
        n_gpu_layers: int = 0,
        chat_format: str | None = None,
        n_threads: int | None = None,
    ) -> None:
        """Check the file; the model is loaded on first use (in a worker thread).

        Args:
            path: The ``.gguf`` file.
            n_ctx: Context size in tokens (prompt plus reply); 0 uses the model's training context.
            n_gpu_layers: Layers to offload to a GPU when llama-cpp-python was built with one (-1: all).
            chat_format: A llama-cpp-python chat format name (``"chatml"``, ``"llama-2"``...) used when the
                GGUF has no chat template, or to override it.
            n_threads: CPU threads, for generation and prompt evaluation both; llama-cpp-python's defaults when None.

        Raises:
            ConfigError: the path is not a GGUF file.
            ImportError: llama-cpp-python is not installed.
        """
        self._path = check_gguf_path(path)
        _import_llama_cpp()
        self._n_ctx = n_ctx
        self._n_gpu_layers = n_gpu_layers
        self._chat_format = chat_format
        self._n_threads = n_threads
        self._info: ModelInfo | None = None

    @property
    def name(self) -> str:
        return f"llama-cpp:{self._path}"

    @property
    def can_constrain(self) -> bool:
        """Calls can be constrained to the offered tools (a lazy grammar triggered by the call opener)."""
        return True

    @property
    def description(self) -> str:
        return f"llama.cpp model {self._path.name!r}"

    async def model_info(self) -> ModelInfo:
        """The GGUF header's architecture, names and chat template; see `Backend.model_info`. A model already
        loaded answers from llama.cpp's copy of the header; otherwise the header alone is read (with the
        ``gguf`` package, memory-mapped), so asking never loads the weights.

        Raises:
            BackendError: the file's header cannot be read.
        """
        if self._info is None:
            loaded = next((m for key, m in _models.items() if key[0] == self._path), None)
            if loaded is not None:
                metadata: Mapping[str, str] = loaded.llm.metadata
            else:
                metadata = await anyio.to_thread.run_sync(_read_header, self._path)
            info = _model_info(metadata)
            # A named chat format replaces the file's template in the prompt: the template is no evidence then.
            self._info = replace(info, template=None) if self._chat_format is not None else info
        return self._info

    async def model(self) -> Any:
        """The loaded ``llama_cpp.Llama`` (loading it if needed), for inspection."""
        return (await self._load()).llm

    async def _load(self) -> _LoadedModel:
        key = (self._path, self._n_ctx, self._n_gpu_layers, self._chat_format)
        loaded = _models.get(key)
        if loaded is None:
            loaded = await anyio.to_thread.run_sync(self._load_blocking, key)
        return loaded

    def _load_blocking(self, key: tuple[Path, int, int, str | None]) -> _LoadedModel:
        with _load_lock:  # two tasks asking at once load the file once
            if key in _models:
                return _models[key]
            llama_cpp = _import_llama_cpp()
            try:
                llm = llama_cpp.Llama(
                    model_path=str(self._path),
                    n_ctx=self._n_ctx,
                    n_gpu_layers=self._n_gpu_layers,
                    n_threads=self._n_threads,
                    n_threads_batch=self._n_threads,  # None: llama-cpp-python's default (every core)
                    verbose=False,
                )
            except ValueError as exc:  # llama-cpp-python reports every load failure as ValueError
                raise BackendError(
                    f"llama.cpp could not load {str(self._path)!r} ({exc}); the file may be truncated, or "
                    "of an architecture this llama-cpp-python build does not know (upgrade it)"
                ) from None
            loaded = _LoadedModel(llm=llm, format_prompt=_prompt_formatter(llm, self._chat_format), lock=anyio.Lock())
            _models[key] = loaded
            return loaded

    async def _generate(
        self, messages: list[Message], options: GenerationOptions
    ) -> AsyncGenerator[StreamItem | Completion, None]:
        check_extras(options, _SAMPLING_EXTRAS, engine="llama.cpp")
        loaded = await self._load()
        grammar = _compile_grammar(loaded.llm, options.grammar) if options.grammar else None
        constrained = None if grammar is not None else _call_grammar(loaded.llm, options)
        async with loaded.lock:
            run = _Run(loaded, text_messages(messages), options, grammar, constrained)
            try:
                while True:
                    item = await anyio.to_thread.run_sync(run.step)
                    yield item
                    if isinstance(item, Completion):
                        return
            finally:
                # Not resuming the token generator already stopped the engine; closing frees its state.
                run.close()


class _Run:
    """One generation, advanced one piece of text at a time from a worker thread."""

    def __init__(
        self,
        loaded: _LoadedModel,
        messages: list[dict[str, str]],
        options: GenerationOptions,
        grammar: Any,
        constrained: ConstrainedSampling | None = None,
    ):
        self._constrained = constrained
        self._pieces = self._produce(loaded, messages, options, grammar)

    def step(self) -> str | Completion:
        return next(self._pieces)

    def close(self) -> None:
        self._pieces.close()

    def _produce(
        self, loaded: _LoadedModel, messages: list[dict[str, str]], options: GenerationOptions, grammar: Any
    ) -> Generator[str | Completion, None, None]:
        llm = loaded.llm
        prompt, template_stops, has_bos = loaded.format_prompt(messages)
        prompt_tokens: list[int] = llm.tokenize(prompt.encode("utf-8"), add_bos=not has_bos, special=True)
        n_ctx: int = llm.n_ctx()
        if len(prompt_tokens) >= n_ctx:
            raise BackendResponseError(
                f"the prompt is {len(prompt_tokens)} tokens but the context holds {n_ctx}; shorten the "
                "conversation or load the model with a larger n_ctx"
            )
        if options.seed is not None:
            llm.set_seed(options.seed)
        stops = [s for s in (*stop_sequences(options), *template_stops) if s]  # matched here: no engine limit
        budget = n_ctx - len(prompt_tokens)
        if options.max_tokens is not None:
            budget = min(budget, options.max_tokens)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        held = ""  # decoded text that might be the start of a stop sequence
        generated = 0
        finish: FinishReason = "length"
        typed = {
            "top_p": options.top_p,
            "frequency_penalty": options.frequency_penalty,
            "presence_penalty": options.presence_penalty,
        }
        sampling = {k: v for k, v in options.extra.items() if k in _SAMPLING_EXTRAS}
        sampling |= {k: v for k, v in typed.items() if v is not None}  # the typed fields win over extras
        temperature = 0.8 if options.temperature is None else options.temperature
        if self._constrained is not None:
            self._constrained.budget = budget
            tokens = self._constrained.tokens(llm, prompt_tokens, temp=temperature, **sampling)
        else:
            tokens = llm.generate(prompt_tokens, temp=temperature, grammar=grammar, **sampling)
        try:
            for token in tokens:
                if llm.token_eos() == token or _is_end_of_generation(llm, token):
                    finish = "stop"
                    break
                generated += 1
                held += decoder.decode(llm.detokenize([token]))
                cut = _find_stop(held, stops)
                if cut is not None:
                    held = held[:cut]
                    finish = "stop"
                    break
                safe = len(held) - _stop_prefix_length(held, stops)
                if safe > 0:
                    yield held[:safe]
                    held = held[safe:]
                if generated >= budget:
                    break
        finally:
            tokens.close()
        held += decoder.decode(b"", final=True)
        if held:
            yield held
        yield Completion(
            finish_reason=finish,
            text="",
            usage=Usage(prompt_tokens=len(prompt_tokens), completion_tokens=generated),
            constrained=self._constrained is not None and self._constrained.engaged,
        )


def _find_stop(text: str, stops: Sequence[str]) -> int | None:
    positions = [i for i in (text.find(s) for s in stops) if i >= 0]
    return min(positions) if positions else None


def _stop_prefix_length(text: str, stops: Sequence[str]) -> int:
    """Length of the longest end of ``text`` that could grow into a stop sequence."""
    longest = 0
    for stop in stops:
        for size in range(min(len(stop) - 1, len(text)), longest, -1):
            if text.endswith(stop[:size]):
                longest = size
                break
    return longest


def _is_end_of_generation(llm: Any, token: int) -> bool:
    llama_cpp = _import_llama_cpp()
    return bool(llama_cpp.llama_vocab_is_eog(llm._model.vocab, token))  # pyright: ignore[reportPrivateUsage]


def _call_grammar(llm: Any, options: GenerationOptions) -> ConstrainedSampling | None:
    if options.constraint is None:
        return None
    return call_sampling(llm, options.constraint, _import_llama_cpp())


def _compile_grammar(llm: Any, text: str) -> Any:
    llama_cpp = _import_llama_cpp()
    # llama-cpp-python does not check the grammar: it hands llama.cpp's NULL for a bad one to the sampler
    # chain, and the process dies with a segfault at the first token. Parse it here first.
    vocab = llm._model.vocab  # pyright: ignore[reportPrivateUsage]
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, text.encode("utf-8"), b"root")
    if not sampler:
        raise ConfigError(
            "llama.cpp rejected the GBNF grammar (a syntax error, no 'root' rule, or a repetition count over "
            "its limit; its message is on stderr); see llama.cpp's grammars/README.md"
        )
    llama_cpp.llama_sampler_free(sampler)
    return llama_cpp.LlamaGrammar.from_string(text, verbose=False)


_HEADER_KEYS = ("general.architecture", "general.name", "general.basename", "tokenizer.chat_template")


def _read_header(path: Path) -> dict[str, str]:
    """The GGUF header's string fields that say what the model is (`_HEADER_KEYS`), without the weights."""
    try:
        gguf: Any = importlib.import_module("gguf")
    except ImportError:  # the llama extra brings it; without it the file still runs, unrecognised
        return {}
    try:
        reader = gguf.GGUFReader(str(path), "r")
    except (OSError, ValueError) as exc:
        raise BackendError(f"cannot read the GGUF header of {str(path)!r}: {exc}") from None
    found: dict[str, str] = {}
    for key in _HEADER_KEYS:
        field = reader.get_field(key)
        if field is not None:
            found[key] = str(field.contents())
    return found


def _model_info(metadata: Mapping[str, str]) -> ModelInfo:
    architecture = metadata.get("general.architecture")
    name = metadata.get("general.name") or metadata.get("general.basename")
    return ModelInfo(
        name=name or None,
        architecture=architecture.lower() if architecture else None,
        template=metadata.get("tokenizer.chat_template") or None,
    )


def _prompt_formatter(
    llm: Any, chat_format: str | None
) -> Callable[[list[dict[str, str]]], tuple[str, list[str], bool]]:
    chat_formats: Any = importlib.import_module("llama_cpp.llama_chat_format")
    template = llm.metadata.get("tokenizer.chat_template")
    if chat_format is None and template:
        eos = llm.detokenize([llm.token_eos()], special=True).decode("utf-8", errors="replace")
        bos = llm.detokenize([llm.token_bos()], special=True).decode("utf-8", errors="replace")
        formatter: Any = chat_formats.Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
    else:
        name = chat_format or "chatml"
        try:
            handler = chat_formats.get_chat_completion_handler(name)
        except Exception:  # llama-cpp-python raises a bare Exception for an unknown name
            known = sorted(chat_formats.LlamaChatCompletionHandlerRegistry()._chat_handlers)  # pyright: ignore[reportPrivateUsage]
            raise ConfigError(f"unknown chat format {name!r}; llama-cpp-python knows {known!r}") from None
        # The registry keeps only the completion handler; the formatter it wraps is its closure variable.
        cells = dict(zip(handler.__code__.co_freevars, handler.__closure__ or (), strict=True))
        if "chat_formatter" not in cells:
            raise ConfigError(f"chat format {name!r} is a special handler, not a prompt format; pick another")
        formatter = cells["chat_formatter"].cell_contents

    def format_prompt(messages: list[dict[str, str]]) -> tuple[str, list[str], bool]:
        result = formatter(messages=messages)
        raw_stop: Any = result.stop  # a string, a list of strings, or None
        stop: list[Any] = [raw_stop] if isinstance(raw_stop, str) else list(raw_stop or [])
        return result.prompt, [s for s in stop if isinstance(s, str)], bool(result.added_special)

    return format_prompt


def _import_llama_cpp() -> Any:
    return import_sdk(
        "llama_cpp",
        backend="llama-cpp",
        package="llama-cpp-python",
        extra="llama",
        note=" (it compiles llama.cpp, which takes several minutes)",
    )
