"""The command line says what it expects: a typo gets a suggestion, a prompt read from a terminal is never
waited for silently, an unknown chat command is called unknown, and Ctrl-C ends any verb with one line and
exit status 130 (never click's ``Aborted!``, never a traceback)."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from shim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str, input: str | None = None) -> object:
    return CliRunner().invoke(main, list(args), input=input, env={"SHIM_MODEL": "", "SHIM_CONFIG": ""})


def test_a_mistyped_command_gets_exit_2_and_the_nearest_command() -> None:
    result = CliRunner().invoke(main, ["demi"])
    assert result.exit_code == 2
    assert "No such command 'demi'" in result.output and "Did you mean 'demo'?" in result.output


def test_a_command_nothing_resembles_gets_no_suggestion() -> None:
    result = CliRunner().invoke(main, ["zzzzzz"])
    assert result.exit_code == 2 and "Did you mean" not in result.output


def test_chat_calls_an_unknown_command_unknown_before_listing_the_commands(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {}}', encoding="utf-8")
    reply = tmp_path / "reply.txt"
    reply.write_text("Hello.", encoding="utf-8")
    result = CliRunner().invoke(
        main,
        ["chat", "-m", f"replay:{reply}", "-c", str(config)],
        input="/nonsense\n/help\n/exit\n",
        env={"SHIM_MODEL": "", "SHIM_CONFIG": ""},
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    unknown = next(i for i, line in enumerate(lines) if "/nonsense" in line)
    assert "unknown command '/nonsense'" in lines[unknown]
    assert any("/tools" in line for line in lines[unknown:])
    assert result.stdout.count("/reset") == 2  # /help lists the commands again, without "unknown"
    assert "unknown" not in "".join(lines[unknown + 1 :])


class Terminal:
    """A `shim` process whose standard input is a pseudo-terminal (as when a person runs it)."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.leader, follower = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "shim", *args],
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), "SHIM_MODEL": "", "SHIM_CONFIG": "", **(env or {})},
        )
        os.close(follower)
        self.err = b""

    def wait_for_stderr(self, text: str, timeout: float = 120) -> None:
        """Read standard error until ``text`` shows (bounded: the process is killed after ``timeout``)."""
        assert self.process.stderr is not None
        fd = self.process.stderr.fileno()
        while text.encode() not in self.err:
            ready, _, _ = select.select([fd], [], [], timeout)
            chunk = os.read(fd, 4096) if ready else b""
            if not chunk:
                self.process.kill()
                pytest.fail(f"{text!r} never shown; stderr so far: {self.err.decode(errors='replace')}")
            self.err += chunk

    def finish(self, timeout: float = 120) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out.decode(), (self.err + err).decode()


@contextmanager
def terminal(*args: str, env: dict[str, str] | None = None) -> Iterator[Terminal]:
    term = Terminal(*args, env=env)
    try:
        yield term
    finally:
        if term.process.poll() is None:
            term.process.kill()
        term.process.communicate()  # reaps it and closes its pipes, whatever the test did
        os.close(term.leader)


@pytest.mark.parametrize("verb", ["run", "parse"])
def test_no_input_at_a_terminal_says_what_is_expected_instead_of_waiting(verb: str) -> None:
    with terminal(verb) as term:
        code, _, err = term.finish()
    assert code == 2
    assert "pipe it" in err and "Traceback" not in err


def test_ctrl_c_while_reading_ends_with_one_line_and_status_130() -> None:
    with terminal("parse", "-") as term:
        term.wait_for_stderr("end it with Ctrl-D")
        term.process.send_signal(signal.SIGINT)
        code, out, err = term.finish()
    assert code == 130
    after = err.split("Ctrl-D", 1)[1]
    assert after.strip() == "interrupted", err
    assert out == ""


def test_ctrl_c_at_the_chat_prompt_shuts_down_and_exits_130(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {}}), encoding="utf-8")
    reply = tmp_path / "reply.txt"
    reply.write_text("Hello.", encoding="utf-8")
    with terminal("chat", "-m", f"replay:{reply}", "-c", str(config)) as term:
        term.wait_for_stderr("/help")
        term.process.send_signal(signal.SIGINT)
        code, _, err = term.finish()
    assert code == 130, err
    assert err.rstrip().endswith("interrupted") and "Aborted!" not in err and "Traceback" not in err
