"""The transport under ``shim serve`` holds up against clients that stop reading and against running out of file
descriptors (issue 25, items 5 and 10): real servers on 127.0.0.1, raw sockets, and ``shim serve`` itself run
under a low descriptor limit."""

from __future__ import annotations

import resource
import signal
import socket
import subprocess
import sys
from pathlib import Path

import anyio
import httpx
import pytest

from shim.server import create_app, transport
from tests.server._helpers import Endless, serving_transport

pytestmark = pytest.mark.anyio

SHIM = Path(sys.executable).parent / "shim"


async def test_a_stream_whose_client_stops_reading_is_cancelled_upstream_and_its_connection_closed() -> None:
    model = Endless()
    app = create_app({"m": model})
    async with serving_transport(app, write_timeout=1) as url:
        port = int(url.rsplit(":", 1)[1])
        reader = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fills at once: the client reads nothing
        reader.connect(("127.0.0.1", port))
        try:
            body = b'{"model": "m", "stream": true, "messages": [{"role": "user", "content": "talk"}]}'
            head = f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            reader.sendall(head.encode() + body)
            with anyio.fail_after(30):  # the write timeout is 1 s; the bound only keeps a broken server from hanging CI
                await model.closed.wait()  # the generation was cancelled: nothing more is produced for nobody
            async with httpx.AsyncClient() as http:
                with anyio.fail_after(10):
                    health = await http.get(f"{url}/health")
        finally:
            reader.close()
    assert health.status_code == 200


def _low_descriptor_limit() -> None:  # runs in the child before exec
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (60, hard))


def test_at_the_descriptor_limit_each_event_class_is_logged_once_not_a_traceback_per_attempt(tmp_path: Path) -> None:
    recording = tmp_path / "reply.txt"
    recording.write_text("ok", encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [str(SHIM), "serve", "-m", f"replay:{recording}", "--port", str(port), "--max-connections", "1000"]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_low_descriptor_limit
    )
    held: list[socket.socket] = []
    try:
        assert server.stdout is not None and server.stderr is not None
        server.stdout.readline()  # the banner: the socket listens
        for _ in range(120):  # more than 60 descriptors' worth of idle connections: accept() starts failing
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"GET /hea")
            held.append(sock)
        lines: list[str] = []
        while not any("Too many open files" in line for line in lines):
            line = server.stderr.readline()  # bounded: the accept loop fails at once and says so
            assert line, "shim serve exited before it reported the descriptor limit"
            lines.append(line)
        for _ in range(30):  # and keeps failing while these wait in the backlog
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            held.append(sock)
    finally:
        for sock in held:
            sock.close()
        server.terminate()
        _, rest = server.communicate(timeout=30)
    lines += rest.splitlines()
    about_descriptors = [line for line in lines if "Too many open files" in line or "out of system resource" in line]
    assert 1 <= len(about_descriptors) <= 2, about_descriptors[:5]
    assert not any(line.startswith("Traceback") for line in lines)


class _Worker:
    """A uvicorn worker as its supervisor sees it: answers a health ping after ``answers_after`` pings, or never."""

    def __init__(self, answers_after: int | None, exitcode: int | None = None) -> None:
        self.answers_after, self.waits = answers_after, []
        self.process = type("P", (), {"exitcode": exitcode})()

    def ping(self, timeout: float) -> bool:
        self.waits.append(timeout)
        return self.answers_after is not None and len(self.waits) > self.answers_after


def test_a_worker_that_never_answers_gives_way_to_a_signal_after_one_short_wait() -> None:
    # Ctrl-C reaches a worker still importing: it dies without answering, and its pipe never closes. The supervisor
    # waits in short slices and stops as soon as the signal is queued, not after its whole patience (60 s).
    worker, signals = _Worker(answers_after=None), []
    exiting = iter([False, False, True]).__next__  # the run loop sets should_exit once it handles the signal
    assert not transport._answered(worker, 60.0, signals, exiting)
    assert worker.waits == [transport._CHECK_SLICE, transport._CHECK_SLICE]
    worker = _Worker(answers_after=None)
    assert not transport._answered(worker, 60.0, [signal.SIGTERM], lambda: False)
    assert worker.waits == []


def test_a_worker_that_has_exited_is_left_to_uvicorn_to_restart_without_a_ping() -> None:
    worker = _Worker(answers_after=None, exitcode=-15)
    assert transport._answered(worker, 60.0, [], lambda: False)
    assert worker.waits == []


def test_a_slow_worker_is_waited_for_until_it_answers() -> None:
    worker = _Worker(answers_after=3)
    assert transport._answered(worker, 60.0, [], lambda: False)
    assert worker.waits == [transport._CHECK_SLICE] * 4


def test_a_hung_worker_is_waited_for_no_longer_than_the_patience() -> None:
    worker = _Worker(answers_after=None)
    assert transport._answered(worker, 0.0, [], lambda: False)  # then uvicorn's own check kills and replaces it
    assert worker.waits == [transport._CHECK_SLICE]
