"""Each served model carries its profile: detected from what its engine reports on its first request (and kept),
or named per alias; the prompt, the parser and the stop sequences of every request come from it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from openai import AsyncOpenAI

from shim.backends.base import stop_sequences
from shim.backends.model_info import ModelInfo
from shim.errors import ConfigError
from shim.server import LoopSettings, ServerSettings, create_app
from shim.server.app import app_environment
from tests.server._helpers import WEATHER, Recording, replay, serving

pytestmark = pytest.mark.anyio

TEMPLATES = Path(__file__).parent.parent / "profiles" / "templates"
MISTRAL_TEMPLATE = (TEMPLATES / "Mistral-Small-3.2-24B-Instruct-2506.jinja").read_text(encoding="utf-8")


class Reporting(Recording):
    """A recorded model whose engine reports a chat template (as Ollama's /api/show or a GGUF header would)."""

    def __init__(self, backend: Any, info: ModelInfo) -> None:
        super().__init__(backend)
        self.info = info
        self.asked = 0

    async def model_info(self) -> ModelInfo:
        self.asked += 1
        return self.info


def client(url: str) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=f"{url}/v1", api_key="unused", max_retries=0)


async def _ask(url: str, model: str, **extra: Any) -> Any:
    async with client(url) as openai:
        with anyio.fail_after(10):
            return await openai.chat.completions.create(
                model=model, messages=[{"role": "user", "content": "Weather in Paris?"}], tools=[WEATHER], **extra
            )


async def test_a_model_whose_template_is_mistral_s_is_asked_and_read_as_mistral_and_detected_once(
    tmp_path: Path,
) -> None:
    call = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}'
    model = Reporting(replay(tmp_path, call, call), ModelInfo(template=MISTRAL_TEMPLATE))
    async with serving(create_app({"assistant": model})) as url:
        first = await _ask(url, "assistant", stop=["\nObservation:"])
        await _ask(url, "assistant")
    assert model.asked == 1  # kept per alias
    assert "[TOOL_CALLS]" in model.prompts[0][0].content and "<function_call>" not in model.prompts[0][0].content
    calls = first.choices[0].message.tool_calls
    assert [(c.function.name, c.function.arguments) for c in calls] == [("get_weather", '{"city": "Paris"}')]
    # The family's end-of-turn marker joins the request's own stop sequences.
    assert [stop_sequences(o) if o else () for o in model.options] == [("\nObservation:", "</s>"), ("</s>",)]


async def test_a_profile_named_for_an_alias_wins_and_the_engine_is_not_asked(tmp_path: Path) -> None:
    model = Reporting(replay(tmp_path, "Sunny."), ModelInfo(template=MISTRAL_TEMPLATE))
    other = Reporting(replay(tmp_path, "Sunny."), ModelInfo(template=MISTRAL_TEMPLATE))
    settings = ServerSettings(profiles={"assistant": "qwen", "*": "gemma3"})
    async with serving(create_app({"assistant": model, "other": other}, settings=settings)) as url:
        await _ask(url, "assistant")
        await _ask(url, "other")
    assert (model.asked, other.asked) == (0, 0)
    assert "<tool_call>" in model.prompts[0][0].content  # qwen: Hermes JSON
    assert model.options[0] is not None and stop_sequences(model.options[0]) == ("<|im_end|>",)
    assert other.options[0] is not None and stop_sequences(other.options[0]) == (
        "<end_of_turn>",
    )  # "*": every other model


async def test_a_server_wide_dialect_beats_the_profile_s_while_the_profile_still_gives_the_stops(
    tmp_path: Path,
) -> None:
    model = Reporting(replay(tmp_path, "Sunny."), ModelInfo(template=MISTRAL_TEMPLATE))
    settings = ServerSettings(loop=LoopSettings(dialect="function_call"))
    async with serving(create_app({"assistant": model}, settings=settings)) as url:
        await _ask(url, "assistant")
    assert "<function_call>" in model.prompts[0][0].content and "[TOOL_CALLS]" not in model.prompts[0][0].content
    assert model.options[0] is not None and stop_sequences(model.options[0]) == ("</s>",)


async def test_a_model_nobody_knows_is_asked_exactly_as_before_profiles(tmp_path: Path) -> None:
    model = Reporting(replay(tmp_path, "Sunny."), ModelInfo(architecture="llama"))
    async with serving(create_app({"assistant": model})) as url:
        await _ask(url, "assistant")
    assert "<function_call>" in model.prompts[0][0].content
    assert model.options[0] is not None and stop_sequences(model.options[0]) == ()


def test_a_profile_for_an_unknown_alias_or_an_unknown_profile_fails_before_the_server_starts(tmp_path: Path) -> None:
    served = {"assistant": replay(tmp_path, "hi")}
    with pytest.raises(ConfigError, match=r"--profile helper=qwen: no model is offered as 'helper'"):
        create_app(served, settings=ServerSettings(profiles={"helper": "qwen"}))
    with pytest.raises(ConfigError, match=r"--profile \*=qwen9: unknown profile 'qwen9'; known profiles: deepseek"):
        create_app(served, settings=ServerSettings(profiles={"*": "qwen9"}))


def test_the_profiles_reach_every_worker_through_the_app_environment(tmp_path: Path) -> None:
    import json

    settings = ServerSettings(profiles={"assistant": "mistral"})
    data = json.loads(app_environment({"assistant": "ollama:x"}, config=None, settings=settings))
    assert data["settings"]["profiles"] == {"assistant": "mistral"}
    assert data["settings"]["loop"]["dialect"] is None  # the profile's, per model
