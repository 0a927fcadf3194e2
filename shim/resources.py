"""Locate the data folders (`grammars/`, `prompts/`) in a wheel or in a source checkout.

They live at the top level of the repository and are copied into ``shim/_data/`` when a wheel is built
(see ``pyproject.toml``); an editable install reads them from the checkout.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["data_dir"]

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder ``name`` (``"grammars"`` or ``"prompts"``).

    Raises:
        FileNotFoundError: neither the installed copy nor the checkout has it (a broken install).
    """
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"shim's data folder {name!r} is missing from {_PACKAGE}; reinstall shim (pip install --force-reinstall shim)"
    )
