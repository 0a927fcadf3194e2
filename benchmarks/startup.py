"""What starting shim costs: CPU seconds of ``import shim``, ``shim --help`` and one loaded verb, each in a
fresh interpreter, against a bare ``python -c pass`` (the floor). Printed, never asserted: the test suite
counts modules instead (tests/cli/test_startup.py), which means the same on a busy machine.

    python benchmarks/startup.py               # median of 5 runs each
    python benchmarks/startup.py --runs 20
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "python -c pass": "pass",
    "import shim": "import shim",
    "shim --help": "from shim.cli import main\ntry:\n    main(['--help'], prog_name='shim')\nexcept SystemExit:\n    pass",
    "shim parse --help": (
        "from shim.cli import main\ntry:\n    main(['parse', '--help'], prog_name='shim')\nexcept SystemExit:\n    pass"
    ),
}


def cpu_seconds(code: str) -> float:
    """User + system CPU of one fresh interpreter running ``code`` (its output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    medians = {name: statistics.median(cpu_seconds(code) for _ in range(args.runs)) for name, code in CASES.items()}
    floor = medians["python -c pass"]
    for name, seconds in medians.items():
        print(f"{name:20} {seconds:6.3f} s CPU   {seconds / floor:5.1f}x bare python")


if __name__ == "__main__":
    main()
