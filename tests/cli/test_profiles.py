"""``shim profiles``, ``shim prompt --model`` and ``--profile`` on ``shim run``: which family a model is
taken for, and the prompt it then gets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from mcp_servers import lab

from shim.cli import main
from shim.profiles import DEFAULT_PROFILE, PROFILES
from tests.profiles._gguf import header_only_gguf

TOOLS_FILE = Path(__file__).parent.parent / "golden" / "prompts" / "tools.json"
TEMPLATES = Path(__file__).parent.parent / "profiles" / "templates"


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), env={"SHIM_MODEL": "", "SHIM_CONFIG": "", "SHIM_PROFILE": ""})


def test_profiles_lists_every_family_with_its_dialect_and_detection_rule() -> None:
    result = invoke("profiles")
    assert result.exit_code == 0, result.output
    rows = [line.split(maxsplit=2) for line in result.stdout.splitlines()]
    assert [r[0] for r in rows] == [p.name for p in (*PROFILES, DEFAULT_PROFILE)]
    assert [
        "mistral",
        "mistral",
        "name ~ mistral | devstral | ministral | magistral | mixtral | codestral; family mistral | mistral3; "
        "template has [TOOL_CALLS]",
    ] in rows
    assert rows[-1] == ["default", "function_call", "when nothing else matches"]


def test_profiles_for_a_model_says_which_profile_it_gets_and_its_quirks() -> None:
    result = invoke("profiles", "--model", "ollama:qwen3-coder:30b")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split()[:2] == ["qwen3-coder", "tool_call"]
    assert "  - often drops the <tool_call> opener" in result.stdout


def test_profiles_template_prints_the_call_syntax_derived_from_a_template_file() -> None:
    result = invoke("profiles", "--template", str(TEMPLATES / "Qwen3-Coder.jinja"))
    assert result.exit_code == 0, result.output
    assert '  call_open        "<tool_call>\\n<function="' in result.stdout.splitlines()
    assert '  param_close      "</parameter>"' in result.stdout.splitlines()
    as_json = json.loads(invoke("profiles", "--template", str(TEMPLATES / "Qwen3-Coder.jinja"), "--json").stdout)
    assert as_json["syntax"]["param_open"] == "<parameter="


def test_profiles_template_says_why_a_template_gives_no_syntax() -> None:
    result = invoke("profiles", "--template", str(TEMPLATES / "google-gemma-2-2b-it.jinja"))
    assert result.exit_code == 1
    assert "does not render tool calls" in result.output


def test_profiles_json_prints_one_object_per_profile() -> None:
    result = invoke("profiles", "--json")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    qwen = next(r for r in rows if r["name"] == "qwen")
    assert qwen["dialect"] == "tool_call" and qwen["thinking"] == ["<think>", "</think>"]
    assert qwen["readers"][0] == "tool_call" and qwen["stop"] == ["<|im_end|>"]


def test_prompt_for_a_model_uses_its_family_s_call_format() -> None:
    qwen = invoke("prompt", "--tools", str(TOOLS_FILE), "--model", "ollama:qwen2.5:7b")
    assert qwen.exit_code == 0, qwen.output
    assert "<tool_call>" in qwen.stdout and "<function_call>" not in qwen.stdout
    assert "profile 'qwen': dialect 'tool_call'" in qwen.stderr
    mistral = invoke("prompt", "--tools", str(TOOLS_FILE), "--model", "ollama:devstral")
    assert '[TOOL_CALLS][{"name": ' in mistral.stdout and "[AVAILABLE_TOOLS]" in mistral.stdout
    unknown = invoke("prompt", "--tools", str(TOOLS_FILE), "--model", "ollama:smollm2")
    assert "<function_call>" in unknown.stdout


def test_prompt_with_an_unknown_profile_lists_the_known_ones() -> None:
    result = invoke("prompt", "--tools", str(TOOLS_FILE), "--profile", "qwen9")
    assert result.exit_code == 2
    assert "unknown profile 'qwen9'; known profiles: deepseek, default, gemma3" in result.stderr


def test_run_with_a_profile_asks_in_its_dialect_and_still_reads_shim_s_own_calls(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"lab": lab()}}), encoding="utf-8")
    turns = tmp_path / "turns.jsonl"
    call = '<function_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</function_call>'
    turns.write_text(json.dumps({"response": call}) + "\n" + json.dumps({"response": "3"}) + "\n", encoding="utf-8")
    trace = tmp_path / "trace.jsonl"
    result = invoke(
        "run", "-m", f"replay:{turns}", "-c", str(config), "--profile", "mistral", "--trace", str(trace), "1+2?"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "3"
    prompts = [r for line in trace.read_text().splitlines() if (r := json.loads(line))["type"] == "prompt"]
    assert "[TOOL_CALLS]" in prompts[0]["messages"][0]["content"]


def test_run_with_a_mistyped_profile_fails_before_starting_anything() -> None:
    result = invoke("run", "-m", "replay:nothing.jsonl", "--profile", "lama3", "hi")
    assert result.exit_code == 1
    assert "unknown profile 'lama3'; known profiles:" in result.stderr


def test_profiles_for_a_model_says_the_name_alone_chose_unless_detect_asks_the_engine(tmp_path: Path) -> None:
    template = (TEMPLATES / "GLM-4.7-Flash.jinja").read_text(encoding="utf-8")
    path = header_only_gguf(tmp_path / "model.gguf", architecture="glm4moe", name="GLM-4.7-Flash", template=template)
    by_name = invoke("profiles", "--model", str(path))
    assert by_name.exit_code == 0, by_name.output
    assert by_name.stdout.splitlines()[1] == (
        "  chosen: profile 'default', by default (nothing matched) "
        "(the name only; --detect also asks the engine for family and template)"
    )
    detected = invoke("profiles", "--model", str(path), "--detect")
    assert detected.exit_code == 0, detected.output
    assert detected.stdout.splitlines()[1] == (
        "  chosen: profile 'glm', by name 'GLM-4.7-Flash'; the template opens <think>, so replies start inside reasoning"
    )
    row = json.loads(invoke("profiles", "--model", str(path), "--detect", "--json").stdout)
    assert (row["name"], row["evidence"], row["starts_in_reasoning"]) == ("glm", "name", True)
    assert invoke("profiles", "--detect").exit_code == 2  # nothing to ask


def test_run_asks_the_engine_before_the_first_turn_and_prompts_in_the_family_it_reports(tmp_path: Path) -> None:
    # An Ollama model under a house name whose /api/show says family "mistral": asked in Mistral's format.
    from tests.backends._fake_ollama import FakeModel, FakeOllama
    from tests.backends._serving import serve

    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"lab": lab()}}), encoding="utf-8")
    trace = tmp_path / "trace.jsonl"
    fake = FakeOllama(
        {"house:latest": FakeModel(chat="phi3-mini-length.ndjson", capabilities=["completion"], family="mistral")}
    )
    with serve(fake.app) as url:
        invoke("run", "-m", f"ollama:house:latest@{url}", "-c", str(config), "--trace", str(trace), "hi")
    prompts = [r for line in trace.read_text().splitlines() if (r := json.loads(line))["type"] == "prompt"]
    assert "[TOOL_CALLS]" in prompts[0]["messages"][0]["content"]
    chats = [body for path, body in fake.requests if path == "/api/chat"]
    assert chats[0]["options"]["stop"] == ["</s>"]  # the family's stop sequence reached the engine
