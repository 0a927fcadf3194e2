"""Start-up cost: ``import shim`` and ``shim --help`` load only what they use.

Counted in modules, not seconds, so the test means the same on a busy machine: each case runs in a fresh
interpreter and reports ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import shim

ROOT = Path(__file__).resolve().parents[2]

HEAVY = ("mcp", "mcp_types", "llama_cpp", "jsonschema", "starlette", "uvicorn", "httpx", "pydantic", "lark", "jinja2")
"""Libraries that a listing of commands or the version string never needs."""

HEAVY_SHIM = ("shim.agent", "shim.routing", "shim.mcp_client", "shim.parsing.stream", "shim.server")


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` (stdout of the code is discarded)."""
    script = (
        "import io, json, sys\n"
        "real = sys.stdout\n"
        "sys.stdout = io.StringIO()\n"
        "before = set(sys.modules)\n"
        "try:\n" + "".join(f"    {line}\n" for line in code.splitlines()) + "except SystemExit:\n"
        "    pass\n"
        "real.write(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    return set(json.loads(done.stdout))


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(
        m for m in modules if m.split(".")[0] in HEAVY or any(m == s or m.startswith(s + ".") for s in HEAVY_SHIM)
    )


def test_importing_shim_loads_no_agent_mcp_sdk_or_schema_library() -> None:
    modules = loaded_after("import shim")
    assert heavy_in(modules) == []
    assert len(modules) < 60, sorted(modules)


def test_shim_help_loads_no_command_and_no_heavy_library() -> None:
    modules = loaded_after("from shim.cli import main\nmain(['--help'], prog_name='shim')")
    assert heavy_in(modules) == []
    assert not any(m.startswith("shim.cli.") for m in modules), sorted(modules)
    assert len(modules) < 150, sorted(modules)


def test_a_public_name_loads_its_module_on_first_use() -> None:
    modules = loaded_after("import shim\nshim.StreamParser")
    assert "shim.parsing.stream" in modules and "shim.agent" not in modules


@pytest.mark.parametrize("name", shim.__all__)
def test_every_public_name_resolves_to_the_object_its_module_defines(name: str) -> None:
    value = getattr(shim, name)
    if name != "__version__":
        home = sys.modules[shim._HOMES[name]]  # pyright: ignore[reportPrivateUsage]
        assert getattr(home, name) is value
    assert name in dir(shim)


def test_an_unknown_name_is_an_attribute_error_naming_it() -> None:
    with pytest.raises(AttributeError, match="'nonexistent'"):
        shim.nonexistent  # type: ignore[attr-defined]  # noqa: B018
