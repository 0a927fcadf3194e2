"""In MCP-executing mode the client is not the one who configured the servers: a token a tool result holds
does not reach it, whatever shape the model repeats it in (issue 25, item 7). A real lab MCP server started
from a config file by the app, a real server on 127.0.0.1, the openai client."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import anyio
import pytest
from mcp_servers import lab
from openai import AsyncOpenAI

from shim.server import create_app
from tests.server._helpers import call_block, replay, serving

pytestmark = pytest.mark.anyio

SECRET = "lab-secret-6b1f0e9d8c7a"


@pytest.mark.parametrize("stream", [False, True])
async def test_a_token_the_model_repeats_from_a_tool_result_never_reaches_the_client(
    tmp_path: Path, stream: bool
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"lab": lab(env={"LAB_SECRET": SECRET})}}), encoding="utf-8")
    encoded = base64.b64encode(SECRET.encode()).decode()
    answer = f"The secret is {SECRET}, loudly {SECRET.upper()}, encoded {encoded}, wrapped {SECRET[:8]}\n{SECRET[8:]}."
    model = replay(tmp_path, call_block("get_secret"), answer)
    messages = [{"role": "user", "content": "What is the secret?"}]
    async with (
        serving(create_app({"m": model}, config=config)) as url,
        AsyncOpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0) as openai,
    ):
        with anyio.fail_after(30):
            if stream:
                chunks = [
                    c async for c in await openai.chat.completions.create(model="m", messages=messages, stream=True)
                ]
                text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
            else:
                reply = await openai.chat.completions.create(model="m", messages=messages)
                text = reply.choices[0].message.content or ""
    assert text.startswith("The secret is [REDACTED]")
    for shape in (SECRET, SECRET.upper(), encoded[4:-4], SECRET[:8], SECRET[8:]):
        assert shape not in text, shape
