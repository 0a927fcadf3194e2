"""The switch: ``auto`` constrains where the backend can, ``on`` insists, ``off`` never; settings and flags."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from shim.agent_types import constrained_options
from shim.backends import get_backend
from shim.backends.base import GenerationOptions
from shim.backends.scripted import ScriptedBackend
from shim.cli import main
from shim.constrain.turn import Bounds, check_mode, expressible
from shim.errors import ConfigError
from shim.profiles import get_profile
from shim.settings import resolve_settings
from shim.tool_choice import TurnChoice
from shim.types import ToolSpec

TIME = ToolSpec(name="get_time", input_schema={"type": "object", "properties": {"tz": {"type": "string"}}})


AUTO = TurnChoice.of("auto", [TIME])


@pytest.fixture
def replay_backend() -> ScriptedBackend:
    return ScriptedBackend(["hello"])


def test_auto_constrains_where_the_backend_can_and_leaves_the_rest_alone(
    replay_backend: ScriptedBackend, tiny_gguf: Path
) -> None:
    llama = get_backend(f"llama-cpp:{tiny_gguf}")
    options = constrained_options(None, backend=llama, tools=[TIME], dialect="function_call", choice=AUTO, mode="auto")
    assert options is not None and options.constraint is not None and not options.constraint.forced
    kept = GenerationOptions(temperature=0.2)
    same = constrained_options(
        kept, backend=replay_backend, tools=[TIME], dialect="function_call", choice=AUTO, mode="auto"
    )
    assert same is kept


def test_on_with_a_backend_that_cannot_is_a_config_error_naming_it(replay_backend: ScriptedBackend) -> None:
    with pytest.raises(ConfigError, match="cannot constrain tool calls"):
        constrained_options(None, backend=replay_backend, tools=[TIME], dialect="function_call", choice=AUTO, mode="on")


def test_off_a_caller_grammar_or_no_tools_mean_no_constraint(tiny_gguf: Path) -> None:
    llama = get_backend(f"llama-cpp:{tiny_gguf}")
    assert (
        constrained_options(None, backend=llama, tools=[TIME], dialect="function_call", choice=AUTO, mode="off") is None
    )
    own = GenerationOptions(grammar='root ::= "x"')
    assert constrained_options(own, backend=llama, tools=[TIME], dialect="function_call", choice=AUTO, mode="on") is own
    assert constrained_options(None, backend=llama, tools=[], dialect="function_call", choice=AUTO, mode="on") is None


def test_a_named_tool_choice_gives_a_forced_constraint_of_that_tool(tiny_gguf: Path) -> None:
    llama = get_backend(f"llama-cpp:{tiny_gguf}")
    other = ToolSpec(name="add")
    options = constrained_options(
        None,
        backend=llama,
        tools=[TIME, other],
        dialect="tool_call",
        choice=TurnChoice.of({"type": "function", "function": {"name": "add"}}, [TIME, other]),
        mode="auto",
    )
    assert options is not None and options.constraint is not None
    assert options.constraint.forced and [t.name for t in options.constraint.tools] == ["add"]


def test_the_mode_is_checked() -> None:
    assert check_mode("on") == "on"
    with pytest.raises(ConfigError, match="'sometimes'"):
        check_mode("sometimes")


def test_constrain_comes_from_flag_environment_or_config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {}, "shim": {"constrain": "off"}}))
    monkeypatch.delenv("SHIM_CONSTRAIN", raising=False)
    assert resolve_settings(config=str(config)).constrain == "off"
    monkeypatch.setenv("SHIM_CONSTRAIN", "on")
    assert resolve_settings(config=str(config)).constrain == "on"
    assert resolve_settings(config=str(tmp_path / "none.json")).constrain == "on"
    monkeypatch.delenv("SHIM_CONSTRAIN")
    assert resolve_settings(config=str(tmp_path / "none.json")).constrain == "auto"
    config.write_text(json.dumps({"mcpServers": {}, "shim": {"constrain": "yes"}}))
    with pytest.raises(ConfigError, match=r"shim\.constrain"):
        resolve_settings(config=str(config))


def test_run_with_constrain_on_and_a_model_that_cannot_says_so(tmp_path: Path) -> None:
    recording = tmp_path / "turns.jsonl"
    recording.write_text(json.dumps({"response": "hello"}) + "\n")
    config = tmp_path / "mcp.json"
    # This interpreter, not whatever `python` is first on PATH (which may not have shim installed at all).
    demo = {"command": sys.executable, "args": ["-m", "shim.demo.server"]}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}}))
    result = CliRunner().invoke(
        main, ["run", "-m", f"replay:{recording}", "-c", str(config), "--constrain", "on", "-y", "hi"]
    )
    assert "did not start" not in result.output, result.output
    assert result.exit_code != 0
    assert "cannot constrain tool calls" in result.output


def test_bounded_integers_become_the_enum_of_their_values_for_the_grammar_and_nothing_else_changes() -> None:
    schema = {
        "type": "object",
        "properties": {
            "stars": {"type": "integer", "minimum": 1, "maximum": 5, "description": "rating"},
            "even": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 9, "multipleOf": 2},
            "big": {"type": "integer", "minimum": 0, "maximum": 10**6},  # too many values: left to validation
            "open": {"type": "integer", "minimum": 0},
            "nested": {"type": "array", "items": {"type": "integer", "minimum": -1, "maximum": 1}},
        },
    }
    props = expressible(schema)["properties"]
    assert props["stars"] == {"description": "rating", "enum": [1, 2, 3, 4, 5]}
    assert props["even"] == {"enum": [2, 4, 6, 8]}
    assert props["big"] == schema["properties"]["big"] and props["open"] == schema["properties"]["open"]
    assert props["nested"]["items"] == {"enum": [-1, 0, 1]}


def test_bounds_cap_free_strings_and_arrays_and_keep_a_schema_s_own_smaller_bound() -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "code": {"type": "string", "maxLength": 5},
            "long": {"type": "string", "minLength": 300},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "day": {"type": "string", "format": "date"},
            "names": {"type": "array", "items": {"type": "string"}},
            "pair": {"type": "array", "items": {"type": "integer"}, "maxItems": 2},
        },
    }
    props = expressible(schema, Bounds(string=100, items=10))["properties"]
    assert props["city"] == {"type": "string", "maxLength": 100}
    assert props["code"]["maxLength"] == 5 and props["long"]["maxLength"] == 300  # never under its own minimum
    assert "maxLength" not in props["unit"] and "maxLength" not in props["day"]  # already bounded by their form
    assert props["names"] == {"type": "array", "items": {"type": "string", "maxLength": 100}, "maxItems": 10}
    assert props["pair"]["maxItems"] == 2
    assert expressible(schema) == schema  # no bounds: nothing added


def test_a_profile_s_bounds_reach_the_turn_s_constraint(tiny_gguf: Path) -> None:
    llama = get_backend(f"llama-cpp:{tiny_gguf}")
    required = TurnChoice.of("required", [TIME])
    options = constrained_options(
        None,
        backend=llama,
        tools=[TIME],
        dialect="function_call",
        choice=required,
        mode="auto",
        bounds=get_profile("smollm").call_bounds,
    )
    assert options is not None and options.constraint is not None
    assert options.constraint.tools[0].input_schema["properties"]["tz"]["maxLength"] == 100
