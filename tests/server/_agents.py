"""The coding agents the tests start (Claude Code, Codex CLI): where they live, and an environment that keeps
them offline.

Both come from ``npm ci`` (the root ``package.json``, exact versions); nothing is downloaded at test time.
Each run gets its own HOME (and CODEX_HOME), so nothing from the machine's own setup leaks in, and every
switch the clients have for telemetry, update checks and error reports is off: the only host they talk
to is the shim server on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent.parent
BIN = ROOT / "node_modules" / ".bin"
RECORDED = Path(__file__).parent / "recorded"


def agent_bin(name: str) -> str:
    """The launcher of an npm-installed agent; skips where node is not installed (CI has it)."""
    if shutil.which("node") is None:
        pytest.skip(f"node is not installed; {name} is an npm package")
    path = BIN / name
    if not path.exists():
        # node is there, so this is a setup mistake, not a reason to skip.
        pytest.fail(f"{path} is missing: run 'npm ci' in {ROOT} (as .ci/run does)")
    if name == "claude" and path.resolve().stat().st_size < 4096:
        # Claude Code's postinstall puts its native binary in place of a stub; where install scripts did not run,
        # the binary is still in the platform package npm installed beside it.
        native = sorted((ROOT / "node_modules" / "@anthropic-ai").glob("claude-code-*/claude"))
        if native:
            return str(native[0])
    return str(path)


def offline_env(home: Path, **extra: str) -> dict[str, str]:
    """A minimal environment for an agent: its own HOME, PATH, and no proxy or vendor settings of the machine."""
    home.mkdir(parents=True, exist_ok=True)
    keep = {k: os.environ[k] for k in ("PATH", "LANG", "TMPDIR") if k in os.environ}
    return {**keep, "HOME": str(home), "NO_PROXY": "127.0.0.1,localhost", "TERM": "dumb", **extra}


def recorded(name: str) -> dict[str, Any]:
    """A request body one of the real clients sent (``recorded/NAME.json``: its ``path`` and ``body``)."""
    data: dict[str, Any] = json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))
    return data
