import os

import anyio

from shim.agent import Agent
from shim.backends import get_backend
from shim.routing import ToolRouter


async def main() -> None:
    backend = get_backend(os.environ.get("SHIM_MODEL", "ollama:qwen2.5:7b"))
    async with ToolRouter.from_config("examples/mcp.json") as router:
        agent = Agent(backend, router)
        async for event in agent.stream("What time is it in Tokyo?"):
            print(event.to_dict())  # text, reasoning, calls as they stream, results, turn ends, done


anyio.run(main)
