"""The shipped demo model: it is the one ``benchmarks/tiny_model`` describes, and it calls the demo tools.

The model runs for real (llama-cpp-python, greedy, fixed seed) through shim's prompt and parser; nothing is
retrained here. Its recipe is read from ``benchmarks/tiny_model/recipe.py`` (torch-free).
"""

from __future__ import annotations

import hashlib
from typing import Any

import anyio
import gguf
import pytest

from shim.backends.base import GenerationOptions
from shim.backends.llamacpp import LlamaCppBackend
from shim.demo import DEMO_REQUESTS, demo_tool_specs, model_path
from shim.events import ToolCallEnd
from shim.parsing.stream import StreamParser
from shim.prompting import render_messages, render_system_prompt
from shim.types import ToolSpec
from tests.demo.tiny_model import load as _load


@pytest.fixture(scope="module")
def tools() -> list[ToolSpec]:
    return anyio.run(demo_tool_specs)


def _field(reader: gguf.GGUFReader, key: str) -> Any:
    value = reader.fields[key]
    return value.contents()


def test_the_shipped_model_is_small_and_names_the_script_version_and_seed_that_made_it() -> None:
    recipe = _load("recipe")
    path = model_path()
    assert path.stat().st_size < 5_000_000
    reader = gguf.GGUFReader(path)
    assert _field(reader, "general.architecture") == "llama"
    assert _field(reader, "general.name") == recipe.MODEL_NAME
    assert _field(reader, "shim.tiny.script_version") == recipe.SCRIPT_VERSION
    assert _field(reader, "shim.tiny.data_seed") == recipe.DATA_SEED
    assert _field(reader, "shim.tiny.train_seed") == recipe.TRAIN_SEED
    assert _field(reader, "shim.tiny.train_steps") == recipe.STEPS
    assert _field(reader, "llama.embedding_length") == recipe.N_EMBD
    assert _field(reader, "llama.block_count") == recipe.N_LAYER
    assert _field(reader, "llama.feed_forward_length") == recipe.N_FF
    assert _field(reader, "llama.attention.head_count") == recipe.N_HEAD


def test_the_model_was_trained_on_the_prompt_shim_renders_today(tools: list[ToolSpec]) -> None:
    # The digest covers the full and the compact tool listing; it changes when the prompt templates or the
    # demo server's tool definitions change, and then the model must be retrained (train.py).
    prompts = [render_system_prompt(tools, compact=compact).strip() for compact in (False, True)]
    digest = hashlib.sha256("\x00".join(prompts).encode()).hexdigest()[:16]
    assert _field(gguf.GGUFReader(model_path()), "shim.tiny.prompt_sha256") == digest


@pytest.mark.anyio
@pytest.mark.parametrize("request_index", [0, 2, 5], ids=["calculate", "convert_units", "korean"])
async def test_the_model_writes_a_call_the_parser_extracts_for_a_demo_request(
    tools: list[ToolSpec], request_index: int
) -> None:
    request = DEMO_REQUESTS[request_index]
    backend = LlamaCppBackend(model_path(), n_ctx=2048)
    messages = render_messages([{"role": "user", "content": request.text}], tools)
    options = GenerationOptions(temperature=0.0, seed=0, max_tokens=120)
    parser = StreamParser(tools=tools)
    events = []
    with anyio.fail_after(30):
        async with backend.stream(messages, options=options) as stream:
            async for chunk in stream:
                events += parser.feed(chunk)
    events += parser.close()
    calls = [e for e in events if isinstance(e, ToolCallEnd)]
    assert [(c.name, c.arguments) for c in calls] == [(request.tool, dict(request.arguments))]
