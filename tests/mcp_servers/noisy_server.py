"""A misbehaving stdio MCP server: the lab server behind a pipe that also prints junk on stdout.

Many real servers do this (a ``print()`` left in, a library logging to stdout, a banner at start-up).
Between every JSON-RPC message from the lab server it writes ``NOISY_LINES`` (default 3) lines that are not
JSON-RPC: plain text, broken JSON, and ``$NOISY_SAY`` when set (to check that what such a line says is
redacted before anyone sees it).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

LAB_SERVER = Path(__file__).with_name("lab_server.py")


def main() -> None:
    junk = ["starting up... loading plugins", "{not json at all", f"DEBUG {os.environ.get('NOISY_SAY', 'ready')}"]
    count = int(os.environ.get("NOISY_LINES", "3"))
    child = subprocess.Popen(
        [sys.executable, str(LAB_SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert child.stdin is not None and child.stdout is not None
    out = sys.stdout.buffer

    def pump_in() -> None:
        assert child.stdin is not None
        for line in sys.stdin.buffer:
            child.stdin.write(line)
            child.stdin.flush()
        child.stdin.close()

    threading.Thread(target=pump_in, daemon=True).start()
    out.write(b"Welcome to the noisy server!\n")  # a banner before anything else
    out.flush()
    for line in child.stdout:
        for i in range(count):
            out.write(junk[i % len(junk)].encode() + b"\n")
        out.write(line)
        out.flush()
    sys.exit(child.wait())


if __name__ == "__main__":
    main()
