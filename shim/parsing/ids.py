"""Call ids, for the parser's readers: the one source is `shim.ids` (a floor below the backends, which draw
from it too)."""

from shim.ids import IdGenerator, is_call_id

__all__ = ["IdGenerator", "is_call_id"]
