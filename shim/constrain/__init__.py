"""Constrained decoding: calls that cannot be malformed, and structured output.

- `schema`: the offered tools and the dialect's markers as one `CallConstraint` (and its JSON schema).
- `gbnf`: that constraint as a llama.cpp GBNF grammar (cached; degrades, never refuses).
- `structured`: ``response_format`` / ``format`` requests of the provider, turned into what the loop needs.
"""

from shim.constrain.schema import CallConstraint, ConstrainMode, build_constraint, call_schema

__all__ = ["CallConstraint", "ConstrainMode", "build_constraint", "call_schema"]
