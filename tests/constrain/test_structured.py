"""Structured output through the provider: the request's format, the engine's mechanism, validation and retry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pydantic
import pytest
from openai import AsyncOpenAI

from shim.backends import get_backend
from shim.constrain.structured import StructuredOutput, parse_ollama_format, parse_response_format, structured_method
from shim.server import create_app
from shim.server.structured import read_answer
from tests.server._helpers import Recording, replay, serving

pytestmark = pytest.mark.anyio

CITY = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
    "required": ["city", "population"],
}


class City(pydantic.BaseModel):
    city: str
    population: int


def test_response_format_json_schema_and_json_object_are_read_and_text_is_nothing() -> None:
    parsed = parse_response_format({"type": "json_schema", "json_schema": {"name": "city", "schema": CITY}})
    assert parsed is not None and parsed.schema == CITY and parsed.name == "city"
    assert parse_response_format({"type": "json_object"}) == StructuredOutput(raw={"type": "json_object"})
    assert parse_response_format({"type": "text"}) is None
    assert parse_response_format(None) is None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"type": "xml"}, "'xml' is not one of"),
        ("json", "must be an object"),
        ({"type": "json_schema"}, "needs 'json_schema'"),
        (
            {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "integer", "minimum": "0"}}},
            "not a valid JSON schema",
        ),
    ],
)
def test_a_bad_response_format_says_what_is_wrong(value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_response_format(value)


def test_ollama_format_is_json_or_a_schema() -> None:
    assert parse_ollama_format("") is None and parse_ollama_format(None) is None
    assert parse_ollama_format("json") == StructuredOutput(raw="json")
    schema = parse_ollama_format(CITY)
    assert schema is not None and schema.schema == CITY
    with pytest.raises(ValueError, match='"json" or a JSON schema'):
        parse_ollama_format("yaml")


@pytest.mark.parametrize(
    "answer",
    [
        '{"city": "Seoul", "population": 9400000}',
        'Here it is:\n```json\n{"city": "Seoul", "population": 9400000}\n```',
        "{'city': 'Seoul', 'population': 9400000,}",  # read as the parser reads a call's arguments
        'The answer is {"city": "Seoul", "population": 9400000} (source: 2020) {"x": 1}',
        "Sure! {not json} and then {'city': 'Seoul', 'population': 9400000}",
    ],
)
def test_an_answer_is_found_in_fences_or_prose_read_leniently_and_validated(answer: str) -> None:
    assert read_answer(StructuredOutput(schema=CITY), answer) == ({"city": "Seoul", "population": 9400000}, None)


def test_an_answer_that_breaks_the_schema_says_where() -> None:
    value, problem = read_answer(StructuredOutput(schema=CITY), '{"city": "Seoul", "population": "many"}')
    assert value is None and problem == "at '$.population': 'many' is not of type 'integer'"
    assert read_answer(StructuredOutput(), "[1, 2]") == (None, "the answer must be a JSON object")
    assert read_answer(StructuredOutput(), "no idea") == (None, "the answer is not JSON")
    deep = "[" * 990 + "]" * 990
    assert read_answer(StructuredOutput(), deep) == (None, "the answer nests arrays/objects more than 100 levels deep")


def test_engines_use_their_own_mechanism_unless_tools_may_be_called(tiny_gguf: Path, tmp_path: Path) -> None:
    structured = StructuredOutput(schema=CITY)
    llama = get_backend(f"llama-cpp:{tiny_gguf}")
    assert structured_method(llama, structured, calls_possible=False) == "grammar"
    assert structured_method(llama, structured, calls_possible=True) == "prompt"
    assert structured_method(replay(tmp_path, "x"), structured, calls_possible=False) == "prompt"


async def test_the_openai_client_s_parse_gets_a_valid_object_after_one_retry(tmp_path: Path) -> None:
    # A model without a mechanism of its own: the prompt asks for the schema; its first answer breaks it.
    model = Recording(
        replay(tmp_path, '{"city": "Seoul", "population": "lots"}', '{"city": "Seoul", "population": 9400000}')
    )
    async with (
        serving(create_app({"m": model})) as url,
        AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0) as client,
    ):
        with anyio.fail_after(20):
            raw = await client.chat.completions.with_raw_response.parse(
                model="m", messages=[{"role": "user", "content": "Biggest city of Korea?"}], response_format=City
            )
    completion = raw.parse()
    assert completion.choices[0].message.parsed == City(city="Seoul", population=9400000)
    assert raw.headers["x-shim-structured-output"] == "prompt"
    assert len(model.prompts) == 2
    assert '"population"' in model.prompts[0][0].content  # the schema is in the system prompt
    assert "cannot be used (at '$.population'" in model.prompts[1][-1].content


async def test_the_responses_surface_answers_text_format_and_says_how(tmp_path: Path) -> None:
    # The real openai client's responses.parse sends text.format; the header names the method, as on chat.
    model = replay(tmp_path, '{"city": "Incheon", "population": 3000000}')
    async with (
        serving(create_app({"m": model})) as url,
        AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0) as client,
    ):
        with anyio.fail_after(20):
            raw = await client.responses.with_raw_response.parse(model="m", input="Third city?", text_format=City)
    assert raw.headers["x-shim-structured-output"] == "prompt"
    assert raw.parse().output_parsed == City(city="Incheon", population=3000000)


async def test_embedded_llama_cpp_answers_under_a_grammar_of_the_schema(tiny_gguf: Path) -> None:
    # The random-weight model knows nothing; the grammar alone makes its answer match the schema.
    schema = {
        "type": "object",
        "properties": {"ok": {"type": "boolean"}, "n": {"type": "integer", "maximum": 99}},
        "required": ["ok", "n"],
    }
    body = {
        "model": "tiny",
        "messages": [{"role": "user", "content": "Answer."}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}},
        "max_tokens": 200,
        "seed": 1,
    }
    async with serving(create_app({"tiny": f"llama-cpp:{tiny_gguf}"})) as url, httpx.AsyncClient(timeout=60) as client:
        with anyio.fail_after(60):
            response = await client.post(f"{url}/v1/chat/completions", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["x-shim-structured-output"] == "grammar"
    value = json.loads(response.json()["choices"][0]["message"]["content"])
    assert set(value) == {"ok", "n"} and isinstance(value["ok"], bool) and isinstance(value["n"], int)


async def test_ollama_format_through_the_ollama_surface(tmp_path: Path) -> None:
    model = replay(tmp_path, 'Sure! {"city": "Busan", "population": 3300000}')
    body = {"model": "m", "messages": [{"role": "user", "content": "Second city?"}], "format": CITY, "stream": False}
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient(timeout=60) as client:
        with anyio.fail_after(20):
            response = await client.post(f"{url}/api/chat", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["x-shim-structured-output"] == "prompt"
    assert json.loads(response.json()["message"]["content"]) == {"city": "Busan", "population": 3300000}


async def test_a_bad_format_is_a_400_naming_it(tmp_path: Path) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "x"}], "response_format": {"type": "yaml"}}
    async with serving(create_app({"m": replay(tmp_path, "x")})) as url, httpx.AsyncClient(timeout=60) as client:
        response = await client.post(f"{url}/v1/chat/completions", json=body)
    assert response.status_code == 400
    assert "response_format" in response.text


async def test_langchain_with_structured_output_gets_the_object(tmp_path: Path) -> None:
    langchain_openai = pytest.importorskip("langchain_openai")
    model = replay(tmp_path, '```json\n{"city": "Incheon", "population": 3000000}\n```')
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient(timeout=60) as http:
        chat = langchain_openai.ChatOpenAI(
            model="m", base_url=f"{url}/v1", api_key="unused", max_retries=0, http_async_client=http
        )
        structured = chat.with_structured_output(City, method="json_schema")
        with anyio.fail_after(20):
            result = await structured.ainvoke("Third city of Korea?")
    assert result == City(city="Incheon", population=3000000)
