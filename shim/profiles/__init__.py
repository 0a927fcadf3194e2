"""Model profiles: facts about a model family, as data (`shim.profiles.data`), and how a model is matched to one
from the evidence its engine reports (`shim.profiles.detect`, whose docstring gives the order of evidence).

A `ModelProfile` links the prompt dialect a family is asked in, the parser rows tried first, its thinking tags
and whether its template opens reasoning, and its stop sequences; the agent and the server build the prompt,
the parser and the stop sequences from it. `from_template` derives a profile's call syntax from the model's
own chat template (`shim.profiles.template`).
"""

from __future__ import annotations

from shim.profiles.data import DEFAULT_PROFILE, MAX_STOP, PROFILES, ModelProfile, get_profile, merge_stop
from shim.profiles.detect import Detection, Evidence, detect, detect_profile, find_profile, opens_reasoning
from shim.profiles.template import from_template

__all__ = [
    "DEFAULT_PROFILE",
    "MAX_STOP",
    "PROFILES",
    "Detection",
    "Evidence",
    "ModelProfile",
    "detect",
    "detect_profile",
    "find_profile",
    "from_template",
    "get_profile",
    "merge_stop",
    "opens_reasoning",
]
