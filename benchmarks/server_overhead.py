"""What `shim serve` adds over the bare backend: time to first byte and throughput, many concurrent clients.

The model is the replay backend at full speed (no delay, 4-character chunks) answering with a short text
and one tool call, so the engine costs next to nothing and what is measured is shim's own work. Three
levels, each with the same requests:

- ``backend``: `Backend.stream` read directly (the floor);
- ``pipeline``: `run_chat` in-process: prompt rendering, the agent loop, the parser, the client view;
- ``http``: the real server in its own process (``shim serve``), streamed SSE over loopback, read by a
  bare keep-alive HTTP/1.1 client (one connection per client).

For each level and concurrency: median and p95 time to the first chunk / first body byte, requests per
second, and (for ``http``, on Linux) the server process's CPU time per request. With more clients than the
one server process keeps up with, time to first byte is mostly queueing; CPU per request is the number that
says what the server costs. The ratios (``http`` over ``backend``) are printed, not asserted anywhere.

    python benchmarks/server_overhead.py                 # 1, 16 and 64 concurrent clients
    python benchmarks/server_overhead.py --requests 2000 --concurrency 1 8 64 256
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import anyio.abc

from shim.backends import get_backend
from shim.backends.base import Backend
from shim.prompting import chat_messages, render_messages
from shim.server.chat import ChatRequest, run_chat
from shim.types import ToolSpec

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
REPLY = (
    "Let me look that up; the forecast service knows best and I will summarise it for you afterwards. "
    '<function_call>{"name": "get_weather", "arguments": {"city": "Paris", "days": 3, "units": "metric"}}'
    "</function_call>"
)
MESSAGES = [{"role": "user", "content": "What is the weather in Paris for the next three days?"}]

Sample = tuple[float, float]  # (seconds to the first chunk, seconds to the end)


async def bare(backend: Backend) -> Sample:
    prompt = render_messages(MESSAGES, [TOOL])  # what the server renders too; the bare floor gets it for free
    started = time.perf_counter()
    first = 0.0
    async with backend.stream(prompt) as stream:
        async for _ in stream:
            first = first or time.perf_counter() - started
    return first, time.perf_counter() - started


async def pipeline(backend: Backend) -> Sample:
    started = time.perf_counter()
    first = 0.0
    request = ChatRequest(model="m", messages=chat_messages(MESSAGES), tools=[ToolSpec.from_any(TOOL)])
    async for _ in run_chat(backend, request):
        first = first or time.perf_counter() - started
    return first, time.perf_counter() - started


class Connection:
    """A bare HTTP/1.1 keep-alive client: a request out, a chunked SSE response in, nothing else.

    httpx (which the openai SDK uses) spends more CPU per request than the server does and its connection
    pool serialises under concurrency, so with it this benchmark would mostly measure the client.
    """

    def __init__(self, host: str, port: int, body: bytes) -> None:
        self.host, self.port = host, port
        self.request = (
            f"POST /v1/chat/completions HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        self.stream: anyio.abc.SocketStream | None = None
        self.buffer = b""

    async def _read(self) -> None:
        assert self.stream is not None
        self.buffer += await self.stream.receive()

    async def _until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            await self._read()
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    async def __call__(self) -> Sample:
        if self.stream is None:
            self.stream = await anyio.connect_tcp(self.host, self.port)
        started = time.perf_counter()
        await self.stream.send(self.request)
        head = await self._until(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"the server answered {head.splitlines()[0]!r}")
        first = 0.0
        while True:  # chunked transfer encoding: size line, data, CRLF; size 0 ends the response
            size = int(await self._until(b"\r\n"), 16)
            while len(self.buffer) < size + 2:
                await self._read()
            first = first or time.perf_counter() - started
            self.buffer = self.buffer[size + 2 :]
            if size == 0:
                return first, time.perf_counter() - started

    async def aclose(self) -> None:
        if self.stream is not None:
            await self.stream.aclose()


async def measure(runs: list[Callable[[], Awaitable[Sample]]], requests: int) -> tuple[list[Sample], float]:
    """Each of ``runs`` is one client, making its share of ``requests`` one after the other."""
    samples: list[Sample] = []

    async def client(run: Callable[[], Awaitable[Sample]], count: int) -> None:
        for _ in range(count):
            samples.append(await run())

    started = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for n, run in enumerate(runs):
            tg.start_soon(client, run, requests // len(runs) + (n < requests % len(runs)))
    return samples, time.perf_counter() - started


def summary(samples: list[Sample], wall: float) -> tuple[float, float, float]:
    firsts = sorted(s[0] for s in samples)
    p95 = firsts[min(len(firsts) - 1, int(len(firsts) * 0.95))]
    return statistics.median(firsts) * 1000, p95 * 1000, len(samples) / wall


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc); None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(recording: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-c", "from shim.cli import main; main()", "serve", "--port", "0"]
    command += ["--log-level", "warning", "--model", f"m=replay:{recording}"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    printed = ""
    while "Ollama-compatible" not in printed:
        line = process.stdout.readline()
        if not line:
            raise SystemExit("shim serve did not start")
        printed += line
    found = re.search(r"OpenAI-compatible:\s+(\S+)", printed)
    assert found is not None
    return process, found.group(1)


async def main(requests: int, levels: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        recording = Path(folder) / "reply.txt"  # a text recording answers every request the same way
        recording.write_text(REPLY, encoding="utf-8")
        backend = get_backend(f"replay:{recording}")
        process, base = start_server(recording)
        host, port = base.removeprefix("http://").removesuffix("/v1").split(":")
        body = json.dumps({"model": "m", "stream": True, "messages": MESSAGES, "tools": [TOOL]}).encode()
        try:
            warm = [Connection(host, int(port), body) for _ in range(4)]
            await measure(list(warm), 50)  # imports, caches and the first requests
            for connection in warm:
                await connection.aclose()
            print(f"{requests} requests per row; reply: {len(REPLY)} characters in 4-character chunks + 1 call\n")
            print(
                f"{'level':<9} {'clients':>7} {'ttfb p50 ms':>12} {'ttfb p95 ms':>12} {'req/s':>9} {'server cpu ms/req':>18}"
            )
            rows: dict[tuple[str, int], tuple[float, float, float]] = {}
            for concurrency in levels:
                connections = [Connection(host, int(port), body) for _ in range(concurrency)]
                levels_runs: dict[str, list[Callable[[], Awaitable[Sample]]]] = {
                    "backend": [lambda: bare(backend)] * concurrency,
                    "pipeline": [lambda: pipeline(backend)] * concurrency,
                    "http": list(connections),
                }
                for name, runs in levels_runs.items():
                    before = cpu_seconds(process.pid)
                    rows[name, concurrency] = summary(*await measure(runs, requests))
                    after = cpu_seconds(process.pid)
                    p50, p95, rate = rows[name, concurrency]
                    used = (
                        ""
                        if name != "http" or before is None or after is None
                        else f"{(after - before) * 1000 / requests:.2f}"
                    )
                    print(f"{name:<9} {concurrency:>7} {p50:>12.3f} {p95:>12.3f} {rate:>9.0f} {used:>18}")
                for connection in connections:
                    await connection.aclose()
            print("\nserver over bare backend (http / backend):")
            for concurrency in levels:
                b, h, p = rows["backend", concurrency], rows["http", concurrency], rows["pipeline", concurrency]
                print(
                    f"  {concurrency:>4} clients: +{h[0] - b[0]:.2f} ms to first byte (p50), "
                    f"throughput x{h[2] / b[2]:.3f} (in-process pipeline alone x{p[2] / b[2]:.3f})"
                )
        finally:
            process.terminate()
            process.wait(timeout=30)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=500, help="requests per row (default 500)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 16, 64], help="concurrent clients")
    args = parser.parse_args()
    anyio.run(main, args.requests, args.concurrency)
