"""Stand-ins for llama.cpp's ``llama-server``, vLLM and SGLang: the OpenAI wire format, plus each engine's own
constraint fields, read the way the engine reads them.

Each stand-in lists its model with the engine's ``owned_by`` (llama.cpp: "llamacpp" in
tools/server/server-context.cpp; vLLM: "vllm" and SGLang: "sglang" in their ``ModelCard``), records every
request body, and answers like a constrained engine would: when the request carries well-formed constraint
fields for that engine, the reply is the call the fields allow (text, then the call); without them the model
"writes" a malformed call; with fields the engine does not understand, it answers 400 as the real one does.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

UNCONSTRAINED = '<function_call>{"name": "get_time", "arguments": {tz: Asia/Seoul}</function_call>'


@dataclass
class FakeEngine:
    owned_by: str
    """"llamacpp", "vllm", "sglang", or anything else for a server that does not say."""
    understands: str
    """Which constraint fields it reads: "llama-server", "structural_tag", or "" (it refuses both)."""
    requests: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/models", self._models, methods=["GET"]),
            ]
        )

    async def _models(self, request: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": "m", "object": "model", "owned_by": self.owned_by}]})

    async def _chat(self, request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        self.requests.append(body)
        llama = {"grammar", "grammar_lazy", "grammar_triggers"} & body.keys()
        tag = (body.get("response_format") or {}).get("type") == "structural_tag"
        if (llama and self.understands != "llama-server") or (tag and self.understands != "structural_tag"):
            return JSONResponse({"error": {"message": "unsupported field", "code": 400}}, status_code=400)
        if llama:
            reply = self._llama_server(body)
        elif tag:
            reply = self._structural_tag(body["response_format"])
        else:
            reply = UNCONSTRAINED
        if isinstance(reply, Response):
            return reply
        return StreamingResponse(_stream(["Let me check. ", reply]), media_type="text/event-stream")

    def _llama_server(self, body: dict[str, Any]) -> str | Response:
        grammar = body.get("grammar")
        if not isinstance(grammar, str) or "root ::=" not in grammar:
            return _bad("grammar must be a GBNF string with a root rule")
        if body.get("grammar_lazy"):
            triggers = body.get("grammar_triggers")
            # llama.cpp reads {"type": <common_grammar_trigger_type>, "value": ...}; 1 is a trigger word.
            if not (isinstance(triggers, list) and triggers and all(_word(t) for t in triggers)):
                return _bad("grammar_triggers must be [{type: 1, value: WORD}]")
            opener = triggers[0]["value"]
            if f'"{opener}"' not in grammar:
                return _bad("a lazy grammar starts at its trigger word, so it must spell it")
        return '<function_call>{"name": "get_time", "arguments": {"tz": "Asia/Seoul"}}</function_call>'

    def _structural_tag(self, response_format: dict[str, Any]) -> str | Response:
        structures = response_format.get("structures")
        triggers = response_format.get("triggers")
        if not (isinstance(structures, list) and structures and isinstance(triggers, list) and triggers):
            return _bad("structural_tag needs structures and triggers")
        for structure in structures:
            if not {"begin", "schema", "end"} <= structure.keys():
                return _bad("each structure needs begin, schema and end")
            if not any(structure["begin"].startswith(t) for t in triggers):
                return _bad("each structure's begin must start with a trigger")
        first = structures[0]
        variant = (first["schema"].get("oneOf") or [first["schema"]])[0]
        name = variant["properties"]["name"]["const"]
        return f'{first["begin"]}{{"name": "{name}", "arguments": {{"tz": "UTC"}}}}{first["end"]}'


def _word(trigger: Any) -> bool:
    return isinstance(trigger, dict) and trigger.get("type") == 1 and isinstance(trigger.get("value"), str)


def _bad(message: str) -> Response:
    return JSONResponse({"error": {"message": message, "code": 400}}, status_code=400)


async def _stream(pieces: list[str]) -> AsyncIterator[bytes]:
    for piece in pieces:
        chunk = {
            "id": "chatcmpl-1",
            "object": "chat.completion.chunk",
            "created": 1736846400,
            "model": "m",
            "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
        }
        yield f"data: {json.dumps(chunk)}\n\n".encode()
    end = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1736846400,
        "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
    }
    yield f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode()
