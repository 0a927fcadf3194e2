"""`shim.redact`: one redact() for traces, logs, audit, errors and terminal output."""

from __future__ import annotations

import base64
import itertools
import json
import logging
from urllib.parse import quote, quote_plus

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shim.errors import BackendConnectionError
from shim.redact import (
    MARK,
    PiecesRedactor,
    StreamRedactor,
    redact,
    redact_data,
    register_secrets,
    secrets_registered,
)

AWKWARD = 'pa"ss\\wo\nrd-0123'
"""A secret holding a quote, a backslash and a newline: the old replace() missed it in JSON lines."""


@pytest.mark.parametrize(
    "form",
    [
        AWKWARD,
        json.dumps(AWKWARD)[1:-1],
        json.dumps(json.dumps(AWKWARD)[1:-1])[1:-1],
        repr(AWKWARD)[1:-1],
        quote(AWKWARD, safe=""),
        quote_plus(AWKWARD),
    ],
    ids=["raw", "json", "json-in-json", "repr", "url", "url-plus"],
)
def test_a_secret_with_quotes_backslashes_and_newlines_is_hidden_in_every_written_form(form: str) -> None:
    text = f"before {form} after"
    assert redact(text, [AWKWARD]) == f"before {MARK} after"


def test_a_json_line_stays_valid_json_once_redacted() -> None:
    line = json.dumps({"env": {"TOKEN": AWKWARD}, "note": f"it was {AWKWARD}"})
    assert json.loads(redact(line, [AWKWARD])) == {"env": {"TOKEN": MARK}, "note": f"it was {MARK}"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cannot reach http://bob:hunter22@10.0.0.5:8000/v1 now", f"cannot reach http://{MARK}@10.0.0.5:8000/v1 now"),
        ("openai:qwen@https://user:p%40ss@api.example.com/v1", f"openai:qwen@https://{MARK}@api.example.com/v1"),
        ('{"url": "redis://:s3cret-pw@cache:6379/0"}', f'{{"url": "redis://{MARK}@cache:6379/0"}}'),
        ("https://ghp_token@github.com/o/r.git", f"https://{MARK}@github.com/o/r.git"),
    ],
)
def test_credentials_in_any_url_are_hidden_and_the_host_stays_readable(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_text_without_secrets_is_left_alone() -> None:
    text = (
        "see http://localhost:8080/v1 or mail bob@example.com; the key is in $OPENAI_API_KEY; "
        "a basic introduction to the bearer instrument, Basic Introduction"
    )
    assert redact(text) == text


def test_credential_shaped_strings_nobody_named_are_hidden() -> None:
    text = "Authorization: Bearer abcdefgh12345678 and sk-proj1234567890abcdef, Basic dXNlcjpwYXNz"
    assert redact(text) == f"Authorization: Bearer {MARK} and {MARK}, Basic {MARK}"


def test_api_keys_from_the_environment_are_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "local-engine-key-42")
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-abcdef-987")
    monkeypatch.setenv("SHIM_MODEL", "ollama:qwen2.5:7b")  # not a secret by its name
    text = "engine said: bad key local-engine-key-42 (tok-abcdef-987) for ollama:qwen2.5:7b"
    assert redact(text) == f"engine said: bad key {MARK} ({MARK}) for ollama:qwen2.5:7b"


def test_a_bearer_header_value_hides_its_token_alone_too() -> None:
    assert redact("the token tok-9f8e7d6c5b was refused", ["Bearer tok-9f8e7d6c5b"]) == f"the token {MARK} was refused"


def test_registered_secrets_are_hidden_only_while_registered() -> None:
    with secrets_registered(["server-env-value-1"]):
        assert redact("x server-env-value-1 y") == f"x {MARK} y"
    assert redact("x server-env-value-1 y") == "x server-env-value-1 y"


def test_values_too_short_to_be_secrets_are_not_hidden() -> None:
    assert redact("port 80 is open", ["80", "on"]) == "port 80 is open"


def test_redact_data_hides_secrets_in_every_string_of_a_structure() -> None:
    data = {"a": [f"x {AWKWARD}", 3, None, True], AWKWARD: {"b": AWKWARD}}
    assert redact_data(data, [AWKWARD]) == {"a": [f"x {MARK}", 3, None, True], MARK: {"b": MARK}}


TEXT = f"The key is {AWKWARD} and the engine is http://u:pw-123456@host:80/v1 with sk-abcdefghijklmnop12 done."


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 11])
def test_a_secret_streamed_in_pieces_never_shows_even_in_part(size: int) -> None:
    stream = StreamRedactor([AWKWARD])
    shown = [stream.feed(TEXT[i : i + size]) for i in range(0, len(TEXT), size)]
    shown.append(stream.flush())
    assert "".join(shown) == redact(TEXT, [AWKWARD])
    for fragment in (AWKWARD[:5], "pw-123", "u:pw", "sk-abcdefgh"):
        assert all(fragment not in piece for piece in shown)  # no piece holds the start of a secret


def test_every_split_point_of_a_secret_yields_the_same_redacted_text() -> None:
    text = f"say {AWKWARD}!"
    for cut in range(len(text) + 1):
        stream = StreamRedactor([AWKWARD])
        assert stream.feed(text[:cut]) + stream.feed(text[cut:]) + stream.flush() == f"say {MARK}!"


def test_records_carrying_pieces_keep_their_number_and_order() -> None:
    pieces = [TEXT[i : i + 4] for i in range(0, len(TEXT), 4)]
    records = PiecesRedactor[int]([AWKWARD])
    released: list[tuple[int, dict[object, str]]] = []
    for index, piece in enumerate(pieces):
        released += records.feed(index, {"text": piece})
    released += records.flush()
    assert [index for index, _ in released] == list(range(len(pieces)))
    texts = [p["text"] for _, p in released]
    assert "".join(texts) == redact(TEXT, [AWKWARD])
    assert not any(AWKWARD[:4] in t for t in texts)


def test_shim_log_records_are_redacted_message_and_traceback(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("shim.mcp_client")
    with secrets_registered(["log-secret-abc"]), caplog.at_level(logging.INFO, logger="shim.mcp_client"):
        logger.info("connecting with %s to %s", "log-secret-abc", "http://me:pw-4567@host/x")
        try:
            raise ValueError("bad value log-secret-abc")
        except ValueError:
            logger.exception("failed")
    assert "log-secret-abc" not in caplog.text and "pw-4567" not in caplog.text
    assert f"connecting with {MARK} to http://{MARK}@host/x" in caplog.text
    assert f"bad value {MARK}" in caplog.text


def test_shim_errors_never_carry_credentials() -> None:
    register_secrets(["process-wide-key-xyz"])
    error = BackendConnectionError("cannot reach http://admin:pw-7@h:1/v1 with process-wide-key-xyz")
    assert str(error) == f"cannot reach http://{MARK}@h:1/v1 with {MARK}"


@given(
    before=st.text(max_size=30),
    after=st.text(max_size=30),
    secret=st.text(min_size=6, max_size=20).filter(lambda s: s.strip() == s and s not in MARK),
    cuts=st.lists(st.integers(min_value=0, max_value=100), max_size=12),
)
@settings(max_examples=300, deadline=None)
def test_streaming_any_text_in_any_pieces_matches_redacting_it_whole(
    before: str, after: str, secret: str, cuts: list[int]
) -> None:
    text = f"{before} {secret} {after}"
    points = sorted({min(c, len(text)) for c in cuts} | {0, len(text)})
    stream = StreamRedactor([secret])
    shown = [stream.feed(text[a:b]) for a, b in itertools.pairwise(points)] + [stream.flush()]
    assert "".join(shown) == redact(text, [secret])
    assert all(secret not in piece for piece in shown)


TOKEN = "tok-Abc123xyz789QRS"
"""A token a tool's server holds (in its config's ``env``), which a model may repeat in other shapes."""


@pytest.mark.parametrize(
    ("shape", "written"),
    [
        ("upper-cased", f"the key is {TOKEN.upper()}."),
        ("lower-cased", f"the key is {TOKEN.lower()}."),
        ("base64", "encoded: " + base64.b64encode(TOKEN.encode()).decode()),
        ("base64 inside a longer text, offset 1", base64.b64encode(b"x" + TOKEN.encode() + b"yz").decode()),
        ("base64 inside a longer text, offset 2", base64.b64encode(b"ab" + TOKEN.encode() + b"!").decode()),
        ("url-safe base64", base64.urlsafe_b64encode(b"\xff\xfe" + TOKEN.encode()).decode()),
        ("split over two lines", f"key: {TOKEN[:7]}\n{TOKEN[7:]}"),
        ("split with CRLF", f"key: {TOKEN[:3]}\r\n{TOKEN[3:]}"),
        ("split in a JSON string", json.dumps({"key": f"{TOKEN[:9]}\n{TOKEN[9:]}"})),
    ],
)
def test_case_base64_and_line_split_variants_of_a_registered_secret_are_hidden(shape: str, written: str) -> None:
    with secrets_registered([TOKEN]):
        shown = redact(written)
    assert MARK in shown, shape
    leftovers = [TOKEN, TOKEN.upper(), TOKEN.lower(), base64.b64encode(TOKEN.encode()).decode()[4:-4]]
    assert not any(part in shown for part in leftovers)


def test_a_line_split_secret_streamed_in_pieces_never_shows_even_in_part() -> None:
    text = f"here: {TOKEN[:6]}\n{TOKEN[6:]} done"
    with secrets_registered([TOKEN]):
        for size in (1, 3, 7):
            stream = StreamRedactor()
            shown = "".join(stream.feed(text[i : i + size]) for i in range(0, len(text), size)) + stream.flush()
            assert shown == f"here: {MARK} done"
