"""The embedded llama.cpp backend, run for real on a tiny random-weight GGUF steered by grammars."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from shim.backends import GenerationOptions, get_backend
from shim.backends.llamacpp import LlamaCppBackend
from shim.errors import BackendResponseError, ConfigError
from shim.types import Message

pytestmark = pytest.mark.anyio

CALL = '<function_call>{"name": "get_time", "arguments": {}}</function_call>'
CALL_GRAMMAR = 'root ::= "<function_call>{\\"name\\": \\"get_time\\", \\"arguments\\": {}}</function_call>"'
LONG_A = 'root ::= line{40}\nline ::= "a"{40}'  # 1600 characters; one rule may repeat at most ~2000 times
ASK = [
    Message(role="system", content="You can call tools."),
    Message(role="user", content="What time is it?"),
]


async def test_a_grammar_makes_the_tiny_model_write_an_exact_tool_call(tiny_gguf: Path) -> None:
    backend = get_backend(f"llama-cpp:{tiny_gguf}")
    with anyio.fail_after(30):
        stream = backend.stream(ASK, options=GenerationOptions(grammar=CALL_GRAMMAR))
        chunks = [chunk async for chunk in stream]
    assert "".join(chunks) == CALL
    assert len(chunks) > 10  # streamed token by token, not as one piece
    assert stream.result is not None
    assert stream.result.finish_reason == "stop"
    assert stream.result.text == CALL
    assert stream.result.usage is not None
    assert stream.result.usage.completion_tokens == len(CALL)  # one token per ASCII character
    assert stream.result.usage.prompt_tokens is not None and stream.result.usage.prompt_tokens > 20


async def test_the_prompt_is_built_with_the_chat_template_stored_in_the_model(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    # The grammar forces an end right away, so the prompt is all the context holds afterwards.
    with anyio.fail_after(30):
        await backend.stream(ASK, options=GenerationOptions(grammar='root ::= "ok"')).collect()
        llm = await backend.model()
    prompt = llm.detokenize(llm.input_ids[: llm.n_tokens].tolist(), special=True).decode()
    assert prompt.startswith("<|im_start|>system\nYou can call tools.<|im_end|>\n<|im_start|>user\n")
    assert "What time is it?<|im_end|>\n<|im_start|>assistant\n" in prompt


async def test_a_named_chat_format_replaces_the_stored_template(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf, chat_format="llama-2")
    with anyio.fail_after(30):
        await backend.stream(ASK, options=GenerationOptions(grammar='root ::= "ok"')).collect()
        llm = await backend.model()
    prompt = llm.detokenize(llm.input_ids[: llm.n_tokens].tolist(), special=True).decode()
    assert "[INST]" in prompt
    assert "<|im_start|>" not in prompt


async def test_characters_split_across_byte_tokens_arrive_whole(tiny_gguf: Path) -> None:
    # The vocabulary has no 'é', 'ö' or '✓': the model must emit them as 2 and 3 byte tokens.
    backend = LlamaCppBackend(tiny_gguf)
    with anyio.fail_after(30):
        stream = backend.stream(ASK, options=GenerationOptions(grammar='root ::= "héllo wörld ✓"'))
        chunks = [chunk async for chunk in stream]
    assert "".join(chunks) == "héllo wörld ✓"
    assert "é" in chunks and "✓" in chunks
    assert stream.result is not None and stream.result.usage is not None
    assert stream.result.usage.completion_tokens == len("héllo wörld ✓".encode())  # 16 tokens for 13 chars


async def test_generation_ends_before_a_stop_sequence_that_spans_tokens(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    options = GenerationOptions(grammar='root ::= "abc</function_call>def"', stop=("</function_call>",))
    with anyio.fail_after(30):
        stream = backend.stream(ASK, options=options)
        chunks = [chunk async for chunk in stream]
    assert chunks == ["a", "b", "c"]  # the held-back '<' ... never leaks out
    assert stream.result is not None and stream.result.finish_reason == "stop"


async def test_max_tokens_ends_the_stream_with_finish_reason_length(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    # The grammar cannot end before 50 characters, so only max_tokens can stop it.
    options = GenerationOptions(grammar="root ::= [a-z]{50}", max_tokens=7, seed=3)
    with anyio.fail_after(30):
        result = await backend.stream(ASK, options=options).collect()
    assert result.finish_reason == "length"
    assert len(result.text) == 7
    assert result.usage is not None and result.usage.completion_tokens == 7


async def test_sampling_with_a_seed_is_reproducible(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    options = GenerationOptions(grammar="root ::= [a-z]{20}", seed=42, temperature=1.0)
    with anyio.fail_after(30):
        first = await backend.stream(ASK, options=options).collect()
        second = await backend.stream(ASK, options=options).collect()
    assert first.text == second.text
    assert len(first.text) == 20


async def test_closing_the_stream_stops_generation_in_the_engine(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    with anyio.fail_after(30):
        async with backend.stream(ASK, options=GenerationOptions(grammar=LONG_A)) as stream:
            received: list[str] = []
            async for chunk in stream:
                received.append(chunk)
                if len(received) == 3:
                    break
        done = await backend.stream(ASK, options=GenerationOptions(grammar='root ::= "ok"')).collect()
    assert received == ["a", "a", "a"]
    assert stream.result is not None and stream.result.finish_reason == "cancelled"
    assert stream.result.text == "aaa"
    assert done.text == "ok"  # the model is free again


async def test_cancelling_the_consumer_task_stops_generation_in_the_engine(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    received: list[str] = []
    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:

            async def consume() -> None:
                async for chunk in backend.stream(ASK, options=GenerationOptions(grammar=LONG_A)):
                    received.append(chunk)
                    if len(received) == 5:
                        tg.cancel_scope.cancel()

            tg.start_soon(consume)
        llm = await backend.model()
    # The engine evaluated the prompt and about five tokens, not 3000.
    prompt = llm.detokenize(llm.input_ids[: llm.n_tokens].tolist(), special=True).decode()
    assert prompt.endswith("<|im_start|>assistant\n" + "a" * 4) or prompt.endswith("<|im_start|>assistant\n" + "a" * 5)


async def test_a_prompt_longer_than_the_context_is_reported(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf, n_ctx=256)
    with anyio.fail_after(30), pytest.raises(BackendResponseError, match=r"the context holds 256"):
        await backend.stream([Message(role="user", content="x" * 400)]).collect()


async def test_the_reply_is_cut_with_finish_reason_length_when_the_context_fills(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf, n_ctx=256)
    with anyio.fail_after(30):
        result = await backend.stream(ASK, options=GenerationOptions(grammar="root ::= [a-z]{500}")).collect()
    assert result.finish_reason == "length"
    assert result.usage is not None and result.usage.prompt_tokens is not None
    assert result.usage.prompt_tokens + len(result.text) == 256


async def test_an_invalid_grammar_is_a_config_error(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    with anyio.fail_after(30), pytest.raises(ConfigError, match="rejected the GBNF grammar"):
        await backend.stream(ASK, options=GenerationOptions(grammar="root ::= (")).collect()


async def test_a_grammar_over_llama_cpp_s_repetition_limit_is_a_config_error_not_a_crash(
    tiny_gguf: Path,
) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    with anyio.fail_after(30), pytest.raises(ConfigError, match="repetition count"):
        await backend.stream(ASK, options=GenerationOptions(grammar='root ::= "a"{3000}')).collect()


async def test_an_unknown_sampling_option_is_named(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    with anyio.fail_after(30), pytest.raises(ConfigError, match="'top_q'"):
        await backend.stream(ASK, options=GenerationOptions(extra={"top_q": 3})).collect()


def test_a_missing_model_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"model file '.*nope\.gguf' does not exist"):
        get_backend(f"llama-cpp:{tmp_path / 'nope.gguf'}")


def test_a_file_that_is_not_gguf_is_rejected_with_a_hint(tmp_path: Path) -> None:
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"PK\x03\x04 this is a zip, not a model")
    with pytest.raises(ConfigError, match=r"is not a GGUF model \(it starts with b'PK\\x03\\x04'"):
        get_backend(str(fake))


def test_a_directory_is_not_a_model(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory"):
        LlamaCppBackend(tmp_path)


def test_a_bare_gguf_path_selects_the_embedded_backend(tiny_gguf: Path) -> None:
    backend = get_backend(str(tiny_gguf))
    assert isinstance(backend, LlamaCppBackend)
    assert backend.name == f"llama-cpp:{tiny_gguf.resolve()}"


async def test_the_model_is_loaded_once_per_process(tiny_gguf: Path) -> None:
    with anyio.fail_after(30):
        first = await LlamaCppBackend(tiny_gguf).model()
        second = await get_backend(f"llama-cpp:{tiny_gguf}").model()  # type: ignore[attr-defined]
    assert first is second


async def test_concurrent_streams_on_one_model_take_turns_and_both_finish(tiny_gguf: Path) -> None:
    backend = LlamaCppBackend(tiny_gguf)
    results: dict[str, str] = {}

    async def run(word: str) -> None:
        results[word] = (
            await backend.stream(ASK, options=GenerationOptions(grammar=f'root ::= "{word}"')).collect()
        ).text

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            for word in ("first", "second", "third"):
                tg.start_soon(run, word)
    assert results == {"first": "first", "second": "second", "third": "third"}
