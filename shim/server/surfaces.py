"""Which surface (wire format) a request path speaks, and errors in that surface's own shape.

The one place that decides it: the guard, auth, unknown routes, metrics and the handlers all ask here.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

__all__ = ["RequestError", "Surface", "error_body", "surface_of"]

Surface: TypeAlias = Literal["openai", "ollama", "anthropic"]


class RequestError(Exception):
    """A request the server answers with an error status; each surface renders it in its own body shape."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        kind: str = "invalid_request_error",
        param: str | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind
        """OpenAI's ``error.type``."""
        self.param = param
        self.code = code


def surface_of(path: str) -> Surface:
    """The wire format a request path speaks, for its error bodies: ``/api/*`` is Ollama, ``/v1/messages``
    Anthropic, everything else OpenAI (the most widely understood shape)."""
    if path.startswith("/api/"):
        return "ollama"
    if path == "/v1/messages" or path.startswith("/v1/messages/"):
        return "anthropic"
    return "openai"


_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    503: "overloaded_error",
}


def error_body(surface: Surface, error: RequestError) -> dict[str, Any]:
    """An error response's JSON body in ``surface``'s own shape."""
    if surface == "ollama":
        return {"error": error.message}
    if surface == "anthropic":
        kind = _ANTHROPIC_TYPES.get(error.status, "api_error" if error.status >= 500 else "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": error.message}}
    return {"error": {"message": error.message, "type": error.kind, "param": error.param, "code": error.code}}
