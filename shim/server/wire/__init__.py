"""Request models of every HTTP surface, declared once with pydantic (one module per surface).

`validate` turns a JSON body into a surface's request model, or a `RequestError` (400) naming the field at
fault in the path form the surface's clients know (``messages[2].tool_calls``); each surface renders that
error in its own body shape. Unknown fields are allowed everywhere: clients send vendor extras.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeAlias, TypeVar, cast

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from shim.constrain.structured import StructuredOutput
from shim.prompting.messages import check_base64, image_block, sniff_image_type
from shim.server.http import RequestError

__all__ = [
    "MAX_SCHEMA_DEPTH",
    "ToolChoiceIn",
    "Wire",
    "check_depth",
    "check_image_url",
    "field_path",
    "image_data_url",
    "structured",
    "validate",
]

M = TypeVar("M", bound=BaseModel)

MAX_SCHEMA_DEPTH = 32
"""Deepest nesting of a tool schema (objects and lists) a request may send; real schemas stay under 10."""


def _tool_choice_shape(value: Any) -> Any:
    if value is None or isinstance(value, (str, Mapping)):
        return cast("str | Mapping[str, Any] | None", value)
    raise ValueError("must be 'auto', 'none', 'required' or an object such as {'type': 'function', ...}")


ToolChoiceIn: TypeAlias = Annotated[str | dict[str, Any] | None, BeforeValidator(_tool_choice_shape)]
"""OpenAI's ``tool_choice`` field (chat and Responses): a mode or an object; which tool it may name is the
loop's to decide (`shim.tool_choice.TurnChoice`)."""


class Wire(BaseModel):
    """Base of every request model: extras allowed and kept (``model_extra``); strict, as the reference servers
    are (``"stream": "true"`` is a 400, not true)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)


# Tags pydantic puts into an error's location for the members of a union; they are not field names.
_TAG_CHARS = frozenset("[]()-, ")


def field_path(loc: tuple[int | str, ...]) -> str:
    """``("messages", 2, "tool_calls")`` -> ``messages[2].tool_calls`` (union member tags left out)."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
            continue
        if _TAG_CHARS & set(part) or part[:1].isupper() or part in ("str", "int", "float", "bool", "list", "dict"):
            break  # a union member's tag: the field is where the path got to
        path += f".{part}" if path else part
    return path


def validate(model: type[M], body: Any) -> M:
    """``body`` as ``model``.

    Raises:
        RequestError: 400, naming the first field at fault and what it should be.
    """
    if not isinstance(body, Mapping):
        raise RequestError(400, "the request body must be a JSON object", code="invalid_json")
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        raise _error(exc) from None
    except RecursionError:
        raise RequestError(400, "the request is nested too deeply", code="invalid_request") from None


def _error(exc: ValidationError) -> RequestError:
    first = exc.errors(include_url=False)[0]
    path = field_path(tuple(first["loc"]))
    message = str(first["msg"]).removeprefix("Value error, ")
    shown = _shown(first.get("input"))
    where = f"'{path}'" if path else "the request body"
    got = f"; got {shown}" if shown is not None and first["type"] != "missing" else ""
    return RequestError(400, f"{where}: {message}{got}", param=path or None)


def _shown(value: Any) -> str | None:
    """The offending value, briefly (never a whole message list)."""
    if isinstance(value, Mapping | list):
        return None
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_depth(value: Any, limit: int = MAX_SCHEMA_DEPTH) -> Any:
    """``value`` unchanged if it nests no deeper than ``limit`` objects/lists (checked without recursion).

    Raises:
        ValueError: it nests deeper.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            raise ValueError(f"it is nested more than {limit} levels deep; flatten the schema")
        if isinstance(item, Mapping):
            stack.extend((v, depth + 1) for v in item.values())  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    return value


def structured(parse: Callable[[Any], StructuredOutput | None], value: Any, param: str) -> StructuredOutput | None:
    """A structured-output field read by `shim.constrain.structured`; a bad one is a 400 naming ``param``."""
    try:
        return parse(value)
    except ValueError as exc:
        raise RequestError(400, str(exc), param=param) from None


def check_image_url(url: Any, where: str) -> str:
    """An image URL as a request sends it: a ``data:`` URL must hold valid base64; any other URL is kept as it
    is (shim never fetches it: engines that take URLs get it, others read a placeholder naming it).

    Raises:
        RequestError: 400 naming ``where`` for a URL that is not a string, or a malformed ``data:`` URL.
    """
    if not isinstance(url, str) or not url:
        raise RequestError(400, f"'{where}' must be a URL (data: or http)", param=where)
    try:
        image_block(url)
    except ValueError as exc:
        raise RequestError(400, f"'{where}': {exc}", param=where) from None
    return url


def image_data_url(data: Any, mime_type: Any, where: str) -> str:
    """Base64 image bytes (with their type, when the request says it) as a ``data:`` URL.

    Raises:
        RequestError: 400 naming ``where`` when ``data`` is not valid, non-empty base64.
    """
    try:
        check_base64(data if isinstance(data, str) else "")
    except ValueError as exc:
        raise RequestError(400, f"'{where}': {exc}", param=where) from None
    mime = mime_type if isinstance(mime_type, str) and mime_type else sniff_image_type(data)
    return f"data:{mime};base64,{data}"
