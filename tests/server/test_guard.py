"""The guard: a web page cannot reach the server's tools (cross-site simple requests, DNS rebinding), and no
Host, Origin or Content-Type, however odd, makes the server fail."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shim.server import ServerSettings, create_app
from shim.server.guard import host_allowed, json_media_type, origin_allowed
from tests.server._helpers import Recording, replay, serving

pytestmark = pytest.mark.anyio

QUESTION = [{"role": "user", "content": "hi"}]
BODY = json.dumps({"model": "m", "messages": QUESTION})


async def request(url: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        with anyio.fail_after(10):
            return await http.request(method, f"{url}{path}", **kwargs)


async def test_a_cross_site_simple_post_is_refused_before_the_model_runs(tmp_path: Path) -> None:
    model = Recording(replay(tmp_path, "ran", "ran", "ran"))
    async with serving(create_app({"m": model})) as url:
        # What a page's fetch(..., {method: "POST", body}) sends without a preflight.
        plain = {"content-type": "text/plain;charset=UTF-8", "origin": "http://evil.example"}
        cross_site = await request(url, "POST", "/v1/chat/completions", content=BODY, headers=plain)
        text_plain = await request(url, "POST", "/api/chat", content=BODY, headers={"content-type": "text/plain"})
        form = {"content-type": "application/x-www-form-urlencoded"}
        form_post = await request(url, "POST", "/v1/chat/completions", content=BODY, headers=form)
        port = url.rsplit(":", 1)[1]
        own_page = {"origin": f"http://127.0.0.1:{port}"}  # a page's Blob body carries no type, but an Origin
        untyped = await request(url, "POST", "/v1/chat/completions", content=BODY, headers=own_page)
    assert cross_site.status_code == 403 and cross_site.json()["error"]["code"] == "origin_not_allowed"
    assert "--cors" in cross_site.json()["error"]["message"]
    assert text_plain.status_code == 415 and "application/json" in text_plain.json()["error"]
    assert form_post.status_code == 415 and form_post.json()["error"]["code"] == "unsupported_media_type"
    assert untyped.status_code == 415 and "no Content-Type" in untyped.json()["error"]["message"]
    assert model.prompts == []  # the model never ran


async def test_json_bodies_pass_with_a_charset_or_a_json_suffix_the_same_origin_or_no_type_and_no_origin(
    tmp_path: Path,
) -> None:
    async with serving(create_app({"m": replay(tmp_path, "one", "two", "three", "four")})) as url:
        port = url.rsplit(":", 1)[1]
        charset = {"content-type": "application/json; charset=utf-8"}
        suffixed = {"content-type": "application/vnd.shim+json"}
        same_origin = {"content-type": "application/json", "origin": f"http://127.0.0.1:{port}"}
        answers = [
            await request(url, "POST", "/v1/chat/completions", content=BODY, headers=headers)
            for headers in (charset, suffixed, same_origin)
        ]
        # No Content-Type and no Origin: a non-browser client (LiteLLM's ollama provider sends this).
        answers.append(await request(url, "POST", "/v1/chat/completions", content=BODY))
    assert [a.json()["choices"][0]["message"]["content"] for a in answers] == ["one", "two", "three", "four"]


async def test_a_foreign_host_is_refused_in_each_surfaces_error_shape(tmp_path: Path) -> None:
    async with serving(create_app({"m": replay(tmp_path, "a")})) as url:
        rebound = {"host": "attacker.example:8080", "content-type": "application/json"}
        openai_style = await request(url, "POST", "/v1/chat/completions", content=BODY, headers=rebound)
        ollama_style = await request(url, "POST", "/api/chat", content=BODY, headers=rebound)
        anthropic_style = await request(url, "POST", "/v1/messages", content=BODY, headers=rebound)
        listing = await request(url, "GET", "/v1/models", headers={"host": "attacker.example"})
    assert openai_style.status_code == 403
    assert openai_style.json()["error"]["code"] == "host_not_allowed"
    assert "--allowed-host" in openai_style.json()["error"]["message"]
    assert ollama_style.status_code == 403 and "attacker.example" in ollama_style.json()["error"]
    assert anthropic_style.status_code == 403
    assert anthropic_style.json()["type"] == "error"
    assert anthropic_style.json()["error"]["type"] == "permission_error"
    assert listing.status_code == 403


async def test_local_names_ip_literals_and_allowed_hosts_are_accepted(tmp_path: Path) -> None:
    app = create_app({"m": replay(tmp_path, "a")}, settings=ServerSettings(allowed_hosts=["shim.example.com"]))
    hosts = ["localhost:8080", "127.0.0.1", "[::1]:8080", "shim.example.com", "SHIM.example.com.", "app.localhost"]
    async with serving(app) as url:
        statuses = [(await request(url, "GET", "/v1/models", headers={"host": h})).status_code for h in hosts]
        other = await request(url, "GET", "/v1/models", headers={"host": "other.example.com"})
    assert statuses == [200] * len(hosts) and other.status_code == 403


async def test_allowed_host_star_turns_the_host_check_off(tmp_path: Path) -> None:
    app = create_app({"m": replay(tmp_path, "a")}, settings=ServerSettings(allowed_hosts=["*"]))
    async with serving(app) as url:
        response = await request(url, "GET", "/v1/models", headers={"host": "anything.example"})
    assert response.status_code == 200


async def test_an_origin_given_with_cors_may_call_and_others_may_not_even_preflight(tmp_path: Path) -> None:
    app = create_app({"m": replay(tmp_path, "Hi.")}, settings=ServerSettings(cors_origins=["https://app.example"]))
    preflight = {"access-control-request-method": "POST", "access-control-request-headers": "content-type"}
    async with serving(app) as url:
        allowed = await request(
            url, "OPTIONS", "/v1/chat/completions", headers={**preflight, "origin": "https://app.example"}
        )
        refused = await request(
            url, "OPTIONS", "/v1/chat/completions", headers={**preflight, "origin": "https://evil.example"}
        )
        call = await request(
            url,
            "POST",
            "/v1/chat/completions",
            content=BODY,
            headers={"origin": "https://app.example", "content-type": "application/json"},
        )
    assert allowed.status_code == 200 and allowed.headers["access-control-allow-origin"] == "https://app.example"
    assert refused.status_code == 403
    assert call.status_code == 200 and call.headers["access-control-allow-origin"] == "https://app.example"


def test_the_guards_rules_on_their_own() -> None:
    assert json_media_type(b"application/json") and json_media_type(b"Application/JSON ; charset=utf-8")
    assert json_media_type(b"application/problem+json")
    assert not any(json_media_type(v) for v in (b"", b"text/plain", b"application/jsonx", b"json", b"text/json"))
    assert host_allowed("localhost:1", ()) and host_allowed("[::1]", ()) and host_allowed("10.0.0.7:80", ())
    assert host_allowed("", ())  # HTTP/1.0, never a browser
    assert not host_allowed("127.0.0.1.evil.example", ()) and not host_allowed("localhost.evil.example", ())
    assert host_allowed("a.b.example", ["*.b.example"]) and not host_allowed("b.example.evil", ["*.b.example"])
    assert host_allowed("mybox:8080", (), "mybox")
    assert origin_allowed("http://localhost:8080", "localhost:8080", ())
    assert not origin_allowed("http://localhost:8081", "localhost:8080", ())
    assert not origin_allowed("null", "localhost:8080", ())
    assert origin_allowed("null", "localhost:8080", ["*"])


_HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"), max_size=60)


async def _send(app: Any, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes) -> tuple[int, bytes]:
    """One request straight into the ASGI app, so header bytes no HTTP client would send reach the guard."""
    sent: list[dict[str, Any]] = []
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if pending:
            return pending.pop()
        await anyio.sleep_forever()
        raise AssertionError  # pragma: no cover

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8080),
        "state": {},
    }
    with anyio.fail_after(10):
        await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    host=st.one_of(st.none(), _HEADER_TEXT, st.sampled_from(["localhost", "[::1]:80", "127.0.0.1:1", "[", "a:b:c"])),
    origin=st.one_of(st.none(), _HEADER_TEXT, st.sampled_from(["null", "http://127.0.0.1:8080", "http://"])),
    content_type=st.one_of(st.none(), _HEADER_TEXT, st.sampled_from(["application/json", "application/+json", ";"])),
    length=st.one_of(st.none(), st.sampled_from(["0", "-1", "x", "99999999999999999999", " 5"])),
    path=st.sampled_from(["/v1/chat/completions", "/api/chat", "/v1/messages", "/v1/models", "/", "/health"]),
    method=st.sampled_from(["GET", "POST", "PUT", "OPTIONS", "DELETE"]),
)
def test_no_host_origin_or_content_type_makes_the_server_fail(
    tmp_path: Path,
    host: str | None,
    origin: str | None,
    content_type: str | None,
    length: str | None,
    path: str,
    method: str,
) -> None:
    app = create_app({"m": replay(tmp_path, *["a"] * 3)})
    headers = [
        (name, value.encode("latin-1"))
        for name, value in (
            (b"host", host),
            (b"origin", origin),
            (b"content-type", content_type),
            (b"content-length", length),
        )
        if value is not None
    ]
    status, body = anyio.run(_send, app, method, path, headers, BODY.encode())
    assert status < 500, body
    if status >= 400 and body:
        data = json.loads(body)
        if path.startswith("/api/"):
            assert isinstance(data["error"], str)
        elif path == "/v1/messages":
            assert data["type"] == "error" and isinstance(data["error"]["message"], str)
        else:
            assert isinstance(data["error"]["message"], str)
