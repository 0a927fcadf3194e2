"""The replay backend: recorded output streamed deterministically, with chunking, stops and finish reasons."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from shim.backends import GenerationOptions, get_backend
from shim.backends.replay import ReplayBackend
from shim.errors import BackendError, ConfigError
from shim.types import Message

pytestmark = pytest.mark.anyio

ASK = [Message(role="user", content="What time is it?")]


def _jsonl(path: Path, *records: object, comment: str = "") -> Path:
    lines = ([f"# {comment}"] if comment else []) + [json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


async def test_a_text_file_is_the_reply_on_every_turn_in_chunks_of_the_given_size(tmp_path: Path) -> None:
    reply = tmp_path / "reply.txt"
    reply.write_text("It is noon.", encoding="utf-8")
    backend = get_backend(f"replay:{reply}", chunk_size=3)
    with anyio.fail_after(5):
        first = backend.stream(ASK)
        chunks = [chunk async for chunk in first]
        second = await backend.stream(ASK).collect()
    assert chunks == ["It ", "is ", "noo", "n."]
    assert first.result is not None and first.result.finish_reason == "stop"
    assert second.text == "It is noon."


async def test_a_jsonl_file_serves_one_recorded_reply_per_turn_in_order(tmp_path: Path) -> None:
    path = _jsonl(
        tmp_path / "turns.jsonl",
        {"response": '<function_call>{"name": "get_time", "arguments": {}}</function_call>'},
        {"response": "It is noon."},
        comment="recorded from a two-turn conversation",
    )
    backend = ReplayBackend(path, chunk_size=None)
    with anyio.fail_after(5):
        first = backend.stream(ASK)
        first_chunks = [chunk async for chunk in first]
        second = await backend.stream(ASK).collect()
        with pytest.raises(BackendError, match="has 2 recorded replies and all were served"):
            await backend.stream(ASK).collect()
    assert first_chunks == ['<function_call>{"name": "get_time", "arguments": {}}</function_call>']
    assert second.text == "It is noon."
    assert backend.turns_served == 2


async def test_recorded_chunks_are_streamed_exactly_as_split(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "split.jsonl", {"chunks": ["<func", "tion_call>{", "}</function_call>"]})
    backend = ReplayBackend(path)
    with anyio.fail_after(5):
        chunks = [chunk async for chunk in backend.stream(ASK)]
    assert chunks == ["<func", "tion_call>{", "}</function_call>"]


async def test_a_recorded_length_finish_is_replayed(tmp_path: Path) -> None:
    backend = ReplayBackend(_jsonl(tmp_path / "cut.jsonl", {"response": "Once upon a", "finish_reason": "length"}))
    with anyio.fail_after(5):
        result = await backend.stream(ASK).collect()
    assert result.finish_reason == "length"


async def test_stop_sequences_cut_the_replay_keeping_chunk_boundaries(tmp_path: Path) -> None:
    backend = ReplayBackend(_jsonl(tmp_path / "s.jsonl", {"chunks": ["ab", "c</f", "unction_call>tail"]}))
    with anyio.fail_after(5):
        stream = backend.stream(ASK, options=GenerationOptions(stop=("</function_call>",)))
        chunks = [chunk async for chunk in stream]
    assert chunks == ["ab", "c"]
    assert stream.result is not None and stream.result.finish_reason == "stop"


async def test_closing_a_replay_early_records_cancelled(tmp_path: Path) -> None:
    reply = tmp_path / "long.txt"
    reply.write_text("x" * 100, encoding="utf-8")
    backend = ReplayBackend(reply, chunk_size=10)
    with anyio.fail_after(5):
        async with backend.stream(ASK) as stream:
            async for _ in stream:
                break
    assert stream.result is not None
    assert (stream.result.finish_reason, stream.result.text) == ("cancelled", "x" * 10)


async def test_a_delay_paces_the_chunks_without_changing_them(tmp_path: Path) -> None:
    reply = tmp_path / "r.txt"
    reply.write_text("abcdef", encoding="utf-8")
    with anyio.fail_after(5):
        chunks = [c async for c in ReplayBackend(reply, chunk_size=2, delay=0.001).stream(ASK)]
    assert chunks == ["ab", "cd", "ef"]


def test_a_missing_replay_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"replay file '.*gone\.jsonl' does not exist"):
        get_backend(f"replay:{tmp_path / 'gone.jsonl'}")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"line 1 is not JSON"),
        ("[1, 2]", r'line 1: expected an object like \{"response": "..."\}'),
        ('{"text": "hi"}', r"line 1: needs 'response' \(a string\) or 'chunks'"),
        ('{"response": "hi", "finish_reason": "tool_calls"}', r"'finish_reason' must be 'stop' or 'length'"),
    ],
)
def test_a_malformed_jsonl_line_is_reported_with_its_number(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        ReplayBackend(path)


def test_a_jsonl_file_with_only_comments_has_no_replies(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("# nothing recorded\n\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="has no recorded replies"):
        ReplayBackend(path)
