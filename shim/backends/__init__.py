"""Model backends, chosen by a spec string shared by the CLI, the config file and the server.

```
ollama:MODEL[@URL]          ollama:qwen2.5:7b   ollama:llama3.2@http://gpu-box:11434
llama-cpp:PATH.gguf         llama-cpp:~/models/qwen2.5-7b-instruct-q4_k_m.gguf   (or just the path)
openai:MODEL@URL            openai:qwen2.5-7b@http://127.0.0.1:8000/v1   (vLLM, LM Studio, llama.cpp...)
openai-completions:MODEL@URL    the same server's raw /v1/completions (the prompt is a plain transcript)
replay:PATH                 replay:tests/fixtures/reply.jsonl
```

The spec is split on its *first* colon only: model names contain colons (``qwen2.5:7b``). Engine SDKs are
imported by their backend module when it is used, so a missing extra fails with an install hint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shim.backends.base import Backend, BackendStream, Completion, FinishReason, GenerationOptions, Usage
from shim.errors import ConfigError

__all__ = [
    "BACKEND_KINDS",
    "Backend",
    "BackendStream",
    "Completion",
    "FinishReason",
    "GenerationOptions",
    "Usage",
    "get_backend",
]

BACKEND_KINDS = frozenset({"ollama", "llama-cpp", "openai", "openai-completions", "replay"})
"""The engine names a backend spec may begin with (``KIND:REST``; only the first colon separates)."""

_FORMS = (
    "'ollama:MODEL[@URL]', 'llama-cpp:PATH.gguf' (or a bare path to a .gguf file), "
    "'openai:MODEL@URL', 'openai-completions:MODEL@URL' or 'replay:PATH'"
)


def get_backend(spec: str, **settings: Any) -> Backend:
    """Make the backend a spec names.

    Args:
        spec: See the module docstring.
        **settings: Keyword arguments for the backend's constructor, e.g. ``tool_mode="prompt"`` for Ollama,
            ``n_ctx=8192`` for llama.cpp, ``api_key_env="GROQ_API_KEY"`` for OpenAI, ``chunk_size=1``
            for replay.

    Raises:
        ConfigError: the spec is malformed, names an unknown engine, or a file that is not there.
        ImportError: the engine's extra is not installed (the message says which).
    """
    scheme, sep, rest = spec.partition(":")
    if not sep or scheme not in BACKEND_KINDS:
        if spec.endswith(".gguf") or Path(spec).suffix == ".gguf":
            scheme, rest = "llama-cpp", spec
        else:
            raise ConfigError(f"backend spec {spec!r} names no known engine; use {_FORMS}")
    if not rest:
        raise ConfigError(f"backend spec {spec!r} is missing what follows {scheme + ':'!r}; use {_FORMS}")
    if scheme == "ollama":
        from shim.backends.ollama import OllamaBackend

        model, _, url = rest.partition("@")  # model names never contain '@'; URLs may (user:pass@host)
        return OllamaBackend(_nonempty(model, spec, "model"), host=url or None, **settings)
    if scheme == "llama-cpp":
        from shim.backends.llamacpp import LlamaCppBackend

        return LlamaCppBackend(rest, **settings)
    if scheme in ("openai", "openai-completions"):
        from shim.backends.openai_compat import OpenAICompatBackend

        model, _, url = rest.partition("@")
        api = "completions" if scheme == "openai-completions" else "chat"
        return OpenAICompatBackend(_nonempty(model, spec, "model"), base_url=url or None, api=api, **settings)
    from shim.backends.replay import ReplayBackend

    return ReplayBackend(rest, **settings)


def _nonempty(value: str, spec: str, what: str) -> str:
    if not value:
        raise ConfigError(f"backend spec {spec!r} has an empty {what}; use {_FORMS}")
    return value
