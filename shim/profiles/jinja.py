"""Chat templates rendered as Hugging Face and llama.cpp render them: sandboxed Jinja with ``tojson``,
``raise_exception``, ``strftime_now`` and loop controls (``break``/``continue``). Used to read a template's
generation prompt (`shim.profiles.detect.opens_reasoning`) and its call syntax (`shim.profiles.template`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, NoReturn, cast

from jinja2 import Template, TemplateError, nodes
from jinja2.ext import Extension
from jinja2.parser import Parser
from jinja2.sandbox import SandboxedEnvironment

__all__ = ["render_chat"]


@functools.lru_cache(maxsize=64)
def _compiled(template: str) -> Template | str:
    """The template compiled once (a profile's derivation renders it several times), or why it does not compile.

    Jinja's parse and code generation take tens of milliseconds on a long template, more than its renders."""
    # Sandboxed, but lists and dicts may be changed (Kimi's templates `append`), as llama.cpp's engine allows.
    environment = SandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols", _Generation]
    )
    filters: dict[str, Any] = environment.filters  # typeshed-narrow mappings: the templates need these
    filters["tojson"] = _tojson
    names: dict[str, Any] = environment.globals
    names.update(raise_exception=_raise, strftime_now=_strftime_now)
    try:
        return environment.from_string(template)
    except TemplateError as exc:
        return f"the template does not compile: {exc}"


def render_chat(
    template: str, tools: list[dict[str, Any]] | None = None
) -> Callable[[list[dict[str, Any]], bool], str]:
    """Compile ``template``; return a function rendering messages (with ``tools``) and the generation prompt.

    Raises:
        ValueError: the template does not compile.
    """
    compiled = _compiled(template)
    if isinstance(compiled, str):
        raise ValueError(compiled)

    def render(messages: list[dict[str, Any]], add_generation_prompt: bool) -> str:
        return compiled.render(
            messages=messages,
            tools=tools or [],
            add_generation_prompt=add_generation_prompt,
            bos_token="",
            eos_token="",
        )

    return render


class _Generation(Extension):
    """``{% generation %}…{% endgeneration %}``: Hugging Face marks the assistant's tokens with it; the body is
    rendered as it is."""

    tags = {"generation"}  # noqa: RUF012 (Jinja's own class attribute)

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return nodes.Scope(body, lineno=lineno)


def _strftime_now(fmt: object) -> str:
    return datetime.now().strftime(str(fmt))


def _raise(message: object) -> NoReturn:
    raise TemplateError(str(message))


def _tojson(value: object, indent: int | None = None, ensure_ascii: bool = False, **_: object) -> str:
    # Hugging Face's tojson, not Jinja's HTML-escaping one: templates put JSON into the prompt.
    return json.dumps(value, indent=indent, ensure_ascii=ensure_ascii, default=_jsonable)


def _jsonable(value: object) -> Any:
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        return list(cast("Iterable[Any]", value))  # a filter's generator (`selectattr`) is the list it yields
    raise TypeError(f"{type(value).__name__} is not JSON")
