"""Loads the torch-free modules of ``benchmarks/tiny_model`` (the recipe and the data) by path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TINY = Path(__file__).resolve().parents[2] / "benchmarks" / "tiny_model"


def load(name: str) -> ModuleType:
    """The module ``benchmarks/tiny_model/<name>.py``, loaded once under a private name."""
    qualified = f"tiny_model_{name}"
    if qualified not in sys.modules:
        spec = importlib.util.spec_from_file_location(qualified, TINY / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[qualified] = module
        spec.loader.exec_module(module)
    return sys.modules[qualified]
