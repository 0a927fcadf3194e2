"""``python -m shim``: the same command line as ``shim``."""

from shim.cli import main

main(prog_name="shim")
