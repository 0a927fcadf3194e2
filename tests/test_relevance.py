"""The call decision for models too small to make it: a request's words against each tool's name and description,
the turn choice it forces, and the agent loop that applies it from the model's profile."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from shim.agent import Agent, AgentEnd
from shim.backends.scripted import ScriptedBackend
from shim.profiles import get_profile
from shim.profiles.data import SMALL_MODEL_BOUNDS, SMALL_MODEL_CALLS
from shim.prompting import user_message
from shim.relevance import (
    MATCH_THRESHOLD,
    asked_for,
    asks_for_another,
    can_fill,
    names_tool,
    relevance,
    request_matches,
)
from shim.tool_choice import TurnChoice
from shim.types import ChatMessage, ToolSpec

TRIANGLE = ToolSpec(
    name="calculate_triangle_area",
    description="Calculate the area of a triangle given its base and height.",
    input_schema={"type": "object", "properties": {"base": {"type": "integer"}, "height": {"type": "integer"}}},
)
BMI = ToolSpec(
    name="determine_body_mass_index",
    description="Calculate body mass index given weight and height.",
    input_schema={"type": "object", "properties": {"weight": {"type": "number"}, "height": {"type": "number"}}},
)
WEATHER = ToolSpec(name="getWeatherForecast", description="The weather forecast of a city.", input_schema={})


def test_words_of_the_tool_s_name_count_one_and_words_only_in_its_description_count_half() -> None:
    # "triangle" and "area" are in the name; "base" and "height" only in the description.
    assert relevance("Find the area of a triangle with a base of 10 and a height of 5.", TRIANGLE) == 3.0
    # Only "height" is shared with the BMI tool, from its description.
    assert relevance("Find the area of a triangle with a base of 10 and a height of 5.", BMI) == 0.5


def test_camel_case_names_are_split_and_word_forms_agree_by_their_first_letters() -> None:
    assert relevance("What will the weather be in Paris? I need forecasts.", WEATHER) == 2.0
    assert relevance("weathers forecasted", WEATHER) == 2.0


def test_common_request_words_and_short_words_do_not_count() -> None:
    assert relevance("Can you please calculate it for me and tell me how", TRIANGLE) == 0.0


def test_a_request_matches_when_one_tool_reaches_the_threshold() -> None:
    request = "Find the area of a triangle with a base of 10 and a height of 5."
    assert request_matches(request, [BMI, TRIANGLE])
    assert not request_matches(request, [BMI])
    assert not request_matches("How do I bake bread?", [TRIANGLE, BMI, WEATHER])
    assert not request_matches(request, [])
    assert request_matches("the triangle", [TRIANGLE], threshold=1.0)
    assert not request_matches("the triangle", [TRIANGLE], threshold=MATCH_THRESHOLD)


def test_a_matched_request_makes_an_auto_turn_required_and_nothing_else_changes() -> None:
    asked = [user_message("What is the area of a triangle of base 3 and height 4?")]
    auto = TurnChoice.of("auto", [TRIANGLE])
    assert auto.when_matched(MATCH_THRESHOLD, asked, [TRIANGLE]).mode == "required"
    assert auto.when_matched(None, asked, [TRIANGLE]) is auto  # a profile without the decision
    assert auto.when_matched(MATCH_THRESHOLD, [user_message("Tell me a joke.")], [TRIANGLE]) is auto
    none = TurnChoice.of("none", [TRIANGLE])
    assert none.when_matched(MATCH_THRESHOLD, asked, [TRIANGLE]) is none  # the caller's choice wins
    named = TurnChoice.of("calculate_triangle_area", [TRIANGLE])
    assert named.when_matched(MATCH_THRESHOLD, asked, [TRIANGLE]) is named
    # After the tool's result the model answers as it likes: only a turn right after the user's message.
    result = ChatMessage(role="tool", name="calculate_triangle_area", tool_call_id="call_1")
    assert auto.when_matched(MATCH_THRESHOLD, [*asked, result], [TRIANGLE]) is auto
    assert auto.when_matched(MATCH_THRESHOLD, [], [TRIANGLE]) is auto


def test_the_small_models_profiles_carry_the_decision_and_a_bound_on_calls_of_one_tool_and_others_do_not() -> None:
    for small in ("smollm", "gemma3-270m"):
        profile = get_profile(small)
        assert profile.call_when_matched == MATCH_THRESHOLD
        assert profile.max_calls_per_turn == SMALL_MODEL_CALLS and profile.further_calls_same_tool
        assert profile.call_bounds == SMALL_MODEL_BOUNDS
        assert profile.steer_further_calls and profile.several_calls_when_asked and profile.copy_request_spans
        assert profile.ground_matched_calls
    for other in ("gemma3", "qwen", "default"):
        profile = get_profile(other)
        assert profile.call_when_matched is None
        assert profile.max_calls_per_turn is None and not profile.further_calls_same_tool
        assert profile.call_bounds is None
        assert not profile.steer_further_calls and not profile.several_calls_when_asked
        assert not profile.copy_request_spans and not profile.ground_matched_calls


@pytest.mark.anyio
async def test_the_agent_forces_a_call_for_a_small_model_when_the_request_matches_and_lets_it_answer_otherwise() -> (
    None
):
    call = '<function_call>{"name": "calculate_triangle_area", "arguments": {"base": 3, "height": 4}}</function_call>'
    results: list[tuple[str, Any]] = []
    for request, reply in (("What is the area of a triangle of base 3 and height 4?", call), ("Hi!", "Hello!")):
        backend = ScriptedBackend([reply])
        agent = Agent(backend, None, profile=get_profile("smollm"), external_tools=[TRIANGLE], max_turns=1)
        with anyio.fail_after(10):
            events = [e async for e in agent.stream(request)]
        end = events[-1]
        assert isinstance(end, AgentEnd)
        system = backend.requests[0].messages[0].content
        results.append((end.reason, "Call the tool above that does what the user asks" in system))
        if end.reason == "tool_calls":
            assert [json.loads(json.dumps(c.arguments)) for c in end.calls] == [{"base": 3, "height": 4}]
    assert results == [("tool_calls", True), ("answer", False)]


@pytest.mark.anyio
async def test_a_small_model_s_further_call_to_another_tool_is_not_made() -> None:
    first = '<function_call>{"name": "calculate_triangle_area", "arguments": {"base": 3, "height": 4}}</function_call>'
    second = (
        '<function_call>{"name": "determine_body_mass_index", "arguments": {"weight": 3, "height": 4}}</function_call>'
    )
    backend = ScriptedBackend([f"{first}\n\n{second}"])
    agent = Agent(backend, None, profile=get_profile("smollm"), external_tools=[TRIANGLE, BMI], max_turns=1)
    with anyio.fail_after(10):
        end = [e async for e in agent.stream("The area of the triangle of base 3 and height 4, please.")][-1]
    assert isinstance(end, AgentEnd) and [c.name for c in end.calls] == ["calculate_triangle_area"]


REQUIRED_TRIANGLE = ToolSpec(
    name=TRIANGLE.name,
    description=TRIANGLE.description,
    input_schema={**TRIANGLE.input_schema, "required": ["base", "height"]},
)


@pytest.mark.anyio
async def test_a_matched_call_whose_values_the_request_does_not_hold_is_not_made_and_the_model_answers() -> None:
    made_up = (
        '<function_call>{"name": "calculate_triangle_area", "arguments": {"base": 7, "height": 9}}</function_call>'
    )
    backend = ScriptedBackend([made_up, "A triangle's area is half its base times its height."])
    agent = Agent(backend, None, profile=get_profile("smollm"), external_tools=[REQUIRED_TRIANGLE], max_turns=1)
    with anyio.fail_after(10):
        events = [e async for e in agent.stream("What is the area of a triangle of base 3 and height 4?")]
    end = events[-1]
    assert isinstance(end, AgentEnd) and end.reason == "answer" and not end.calls
    assert end.text == "A triangle's area is half its base times its height."
    assert not [e for e in events if type(e).__name__.startswith("ToolCall")]  # nothing of the call got out
    asked_again = backend.requests[1]
    assert asked_again.options is None or asked_again.options.constraint is None  # the model decides


@pytest.mark.anyio
async def test_a_matched_call_whose_values_the_request_holds_is_made_with_every_event_of_it() -> None:
    call = '<function_call>{"name": "calculate_triangle_area", "arguments": {"base": 3, "height": 4}}</function_call>'
    backend = ScriptedBackend([call])
    agent = Agent(backend, None, profile=get_profile("smollm"), external_tools=[REQUIRED_TRIANGLE], max_turns=1)
    with anyio.fail_after(10):
        events = [e async for e in agent.stream("What is the area of a triangle of base three and height 4?")]
    kinds = [type(e).__name__ for e in events if type(e).__name__.startswith("ToolCall")]
    assert kinds[0] == "ToolCallStart" and kinds[-1] == "ToolCallEnd" and len(backend.requests) == 1


FOOD = ToolSpec(
    name="ChaFod",
    description="Changes the selection of food based on the customer's request.",
    input_schema={
        "type": "object",
        "properties": {"TheFod": {"type": "string", "description": "The food's name.", "enum": ["PIZZA", "BURGER"]}},
        "required": ["TheFod"],
    },
)
COIN = ToolSpec(
    name="probability_coin_toss_heads",
    description="Calculate the probability of getting a certain number of heads in coin tosses.",
    input_schema={
        "type": "object",
        "properties": {
            "coin_tosses": {"type": "integer", "description": "The number of tosses."},
            "heads_needed": {"type": "integer", "description": "The number of heads wanted."},
            "coin_type": {"type": "string", "enum": ["fair", "biased"]},
        },
        "required": ["coin_tosses", "heads_needed"],
    },
)


def test_an_enumerated_value_counts_like_a_word_of_the_name_and_parameter_words_a_quarter() -> None:
    assert relevance("Order me a pizza", FOOD) == 1.0  # "pizza" is one of TheFod's values
    assert relevance("Switch my order from pizza to a burger", FOOD) == 2.0
    # "name" is only in a parameter's description; "food" is in the tool's description.
    assert relevance("food name", FOOD) == 0.75


def test_a_tool_that_needs_a_number_cannot_be_filled_from_a_request_without_a_digit() -> None:
    assert not can_fill("What is the probability of getting heads in coin tosses?", COIN)
    assert can_fill("What is the probability of getting 3 heads in 10 coin tosses?", COIN)
    assert can_fill("Order me a pizza", FOOD)  # nothing numeric is required
    assert not request_matches("What is the probability of getting heads in coin tosses?", [COIN])
    assert request_matches("What is the probability of getting 3 heads in 10 coin tosses?", [COIN])


def test_enumerated_numbers_and_optional_numbers_do_not_need_a_digit() -> None:
    levels = ToolSpec(
        name="set_level",
        description="Set the level.",
        input_schema={
            "type": "object",
            "properties": {
                "level": {"type": "integer", "enum": [1, 2, 3]},
                "volume": {"type": "number"},
                "sizes": {"type": "array", "items": {"type": "number"}},
            },
            "required": ["level"],
        },
    )
    assert can_fill("set the level to high", levels)
    needs_list = ToolSpec(name=levels.name, description="", input_schema={**levels.input_schema, "required": ["sizes"]})
    assert not can_fill("set the sizes", needs_list)
    assert can_fill("set the sizes", ToolSpec(name="x", description="", input_schema={}))


@pytest.mark.anyio
async def test_a_small_model_s_reply_holds_further_calls_of_its_first_tool_up_to_the_bound_and_no_repeat() -> None:
    def area(base: int) -> str:
        call = {"name": "calculate_triangle_area", "arguments": {"base": base, "height": 4}}
        return f"<function_call>{json.dumps(call)}</function_call>\n"

    cases = (
        (area(1) + area(2), [1, 2]),  # several things asked: several calls
        (area(1) + area(1) + area(2), [1]),  # a repeat ends the reply
        ("".join(area(n) for n in range(1, SMALL_MODEL_CALLS + 3)), list(range(1, SMALL_MODEL_CALLS + 1))),
    )
    for reply, bases in cases:
        backend = ScriptedBackend([reply])
        agent = Agent(backend, None, profile=get_profile("smollm"), external_tools=[TRIANGLE], max_turns=1)
        with anyio.fail_after(10):
            end = [e async for e in agent.stream("Areas of triangles of bases 1, 2, 3, 4, 5 and 6, height 4.")][-1]
        assert isinstance(end, AgentEnd) and [c.arguments["base"] for c in end.calls] == bases


@pytest.mark.anyio
async def test_a_small_model_s_reply_to_a_request_for_one_thing_holds_one_call() -> None:
    reply = "".join(
        f'<function_call>{{"name": "calculate_triangle_area", "arguments": {{"base": {n}, "height": 4}}}}</function_call>'
        for n in (1, 2)
    )
    for request, bases in (
        ("Area of a triangle of base 1 and height 4.", [1]),
        ("Areas for bases 1 and 2, each of height 4.", [1, 2]),
    ):
        agent = Agent(
            ScriptedBackend([reply]), None, profile=get_profile("smollm"), external_tools=[TRIANGLE], max_turns=1
        )
        with anyio.fail_after(10):
            end = [e async for e in agent.stream(request)][-1]
        assert isinstance(end, AgentEnd) and [c.arguments["base"] for c in end.calls] == bases


@pytest.mark.anyio
async def test_a_caller_s_one_call_per_turn_wins_over_the_profile_s_bound() -> None:
    reply = "".join(
        f'<function_call>{{"name": "calculate_triangle_area", "arguments": {{"base": {n}, "height": 4}}}}</function_call>'
        for n in (1, 2)
    )
    agent = Agent(
        ScriptedBackend([reply]),
        None,
        profile=get_profile("smollm"),
        external_tools=[TRIANGLE],
        max_turns=1,
        one_call_per_turn=True,
    )
    assert agent.call_limit == 1
    with anyio.fail_after(10):
        end = [e async for e in agent.stream("Areas of triangles of height 4, please.")][-1]
    assert isinstance(end, AgentEnd) and [c.arguments["base"] for c in end.calls] == [1]


def test_a_request_that_names_a_tool_whole_matches_below_the_threshold() -> None:
    total = ToolSpec(name="calculate_sum", description="Adds two numbers.", input_schema={"type": "object"})
    assert relevance("What is the sum of 133 and 34?", total) < MATCH_THRESHOLD
    assert names_tool("What is the sum of 133 and 34?", total)
    assert request_matches("What is the sum of 133 and 34?", [total])
    assert not names_tool("What is the product of 133 and 34?", total)
    assert not names_tool("anything", ToolSpec(name="get", description="", input_schema={"type": "object"}))


HEIGHT = ToolSpec(
    name="calculate_maximum_height",
    description="Calculate the maximum height an object will reach if it's thrown straight upwards with an "
    "initial velocity, ignoring air resistance.",
    input_schema={
        "type": "object",
        "properties": {
            "initial_velocity": {"type": "integer", "description": "The initial velocity in m/s."},
            "gravity": {"type": "number", "description": "The acceleration due to gravity."},
        },
        "required": ["initial_velocity"],
    },
)
INTEGRAL = ToolSpec(
    name="calculus_compute_definite_integral",
    description="Compute the definite integral of a function within a given interval.",
    input_schema={"type": "object", "properties": {"function": {"type": "string"}}, "required": ["function"]},
)
STATS = ToolSpec(
    name="sports_stats_get_performance",
    description="Compute the performance score of a soccer player given his game stats.",
    input_schema={
        "type": "object",
        "properties": {"indicator": {"type": "array", "items": {"type": "string", "enum": ["Goals Scored"]}}},
    },
)


def test_what_a_request_asks_for_is_the_noun_phrase_after_its_lead_at_a_sentence_start() -> None:
    assert asked_for("What is the acceleration a ball will reach?") == {"acce"}
    assert asked_for("Compute the derivative of the function '2x' at 1.") == {"deri"}
    assert asked_for("Hey, can you calculate the standard deviation of these?") == {"stan", "devi"}
    assert asked_for("What's the list of the largest cities in Peru?") == {"larg", "citi"}  # what the list holds
    assert asked_for("Classify these: 'what is my balance?'") is None  # a quoted question is not the request's
    assert asked_for("Find a supermarket in New York.") is None  # one of a kind, not a thing asked for
    assert asked_for("What is the value of x?") is None  # no content word


def test_a_request_for_another_thing_of_the_tool_s_subject_does_not_match_it() -> None:
    ball = "What is the acceleration a ball will reach if it's thrown straight upwards with a velocity of 5 m/s?"
    assert relevance(ball, HEIGHT) >= MATCH_THRESHOLD  # five words of the description
    assert asks_for_another(ball, HEIGHT)
    assert not request_matches(ball, [HEIGHT])
    derivative = "Compute the derivative of the function '2x' within the at 1."
    assert asks_for_another(derivative, INTEGRAL)  # "compute" is a generic verb of its name
    assert not request_matches(derivative, [INTEGRAL])


def test_a_request_for_what_the_tool_names_or_one_naming_its_own_name_still_matches() -> None:
    height = "What is the maximum height a ball will reach if thrown upwards at 5 m/s?"
    assert not asks_for_another(height, HEIGHT) and request_matches(height, [HEIGHT])
    integral = "Compute the area under '2x' from 1 to 3 with a definite integral."
    assert not asks_for_another(integral, INTEGRAL)  # its name's "definite" and "integral"
    goals = "Calculate the overall goals of Messi in the 2020-2021 season of soccer's La Liga."
    assert not asks_for_another(goals, STATS)  # a value the tool enumerates
    assert not asks_for_another("Tell me a joke about balls thrown upwards.", HEIGHT)  # asks for nothing named
