"""Load a script under ``benchmarks/`` as a module, for the tests of its functions.

The scripts are run as ``python benchmarks/NAME.py``, not imported as a package, so a test loads the file.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["load_script"]


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path`` executed as the module ``name`` (registered in ``sys.modules``: dataclasses
    resolve their module by name)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
