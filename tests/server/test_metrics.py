"""``/health`` for load balancers and ``/metrics`` for Prometheus, over real HTTP."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from openai import AsyncOpenAI

from shim.server import ServerSettings, create_app
from tests.server._helpers import WEATHER, call_block, replay, serving

pytestmark = pytest.mark.anyio


def sample(metrics: str, name: str, **labels: str) -> float:
    """The value of one sample in Prometheus text (0 when absent)."""
    for line in metrics.splitlines():
        found = re.fullmatch(rf"{name}(?:\{{(.*)\}})? (\S+)", line)
        if found and all(f'{k}="{v}"' in (found.group(1) or "") for k, v in labels.items()):
            return float(found.group(2))
    return 0.0


async def test_metrics_count_requests_streams_tool_calls_errors_and_time_to_first_token(tmp_path: Path) -> None:
    model = replay(tmp_path, "Checking. " + call_block("get_weather", city="Oslo"), "Plain answer.")
    async with serving(create_app({"m": model})) as url, httpx.AsyncClient(base_url=url) as http:
        before = (await http.get("/metrics")).text
        async with AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0) as openai:
            with anyio.fail_after(20):
                stream = await openai.chat.completions.create(
                    model="m", messages=[{"role": "user", "content": "Weather?"}], tools=[WEATHER], stream=True
                )
                chunks = [c async for c in stream]
                await openai.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])
        missing = await http.post("/api/chat", json={"model": "nope", "messages": [{"role": "user", "content": "?"}]})
        after = (await http.get("/metrics")).text
    assert any(c.choices[0].delta.tool_calls for c in chunks) and missing.status_code == 404

    def grew(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert grew("shim_requests_total", surface="openai", status="200") == 2
    assert grew("shim_requests_total", surface="ollama", status="404") == 1
    assert grew("shim_errors_total", surface="ollama", kind="client") == 1
    assert grew("shim_tool_calls_total", executor="client") == 1
    assert grew("shim_time_to_first_token_seconds_count", surface="openai") == 1
    assert sample(after, "shim_streams_open", surface="openai") == 0  # the stream ended: none left open


async def test_health_needs_no_key_and_says_nothing_else_while_metrics_need_the_key(tmp_path: Path) -> None:
    app = create_app({"secret-model": replay(tmp_path, "a")}, settings=ServerSettings(api_key="sesame"))
    async with serving(app) as url, httpx.AsyncClient(base_url=url) as http:
        health = await http.get("/health")
        anonymous = await http.get("/metrics")
        scraped = await http.get("/metrics", headers={"authorization": "Bearer sesame"})
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    assert anonymous.status_code == 401
    assert scraped.status_code == 200 and scraped.headers["content-type"].startswith("text/plain")
    assert "shim_requests_total" in scraped.text


def test_the_counting_tool_source_shows_the_agent_what_the_wrapped_source_offers() -> None:
    class Source:
        secrets = ("s3cret",)

        def server_of(self, name: str) -> str:
            return f"server of {name}"

    from shim.server.metrics import CountedTools

    counted: Any = CountedTools(Source())  # type: ignore[arg-type]
    assert counted.secrets == ("s3cret",) and counted.server_of("add") == "server of add"
