"""Everything that decides which model `train.py` builds: version, seeds, sizes, schedule.

Torch-free on purpose: the test that checks the shipped model against this recipe imports it without the
training dependencies. Bump `SCRIPT_VERSION` whenever a change here, in ``data.py``, ``vocab.py``,
``model.py`` or ``train.py`` changes the weights.
"""

from __future__ import annotations

SCRIPT_VERSION = "2"
"""Written to the GGUF as ``shim.tiny.script_version``."""
DATA_SEED = 20261122
"""Seed of the synthetic conversations (``shim.tiny.data_seed``)."""
TRAIN_SEED = 7
"""Seed of the weight initialisation and batch order (``shim.tiny.train_seed``)."""

N_TRAIN = 20_000
"""Training conversations."""
N_EVAL = 200
"""Held-out requests for ``evaluate.py``."""
N_MERGES = 600
"""Letter-run merges added to the character vocabulary."""

N_EMBD = 128
N_HEAD = 4
N_LAYER = 3
N_FF = 320
CONTEXT_LENGTH = 2048
ROPE_BASE = 10000.0
RMS_EPS = 1e-5

STEPS = 12000
"""Training steps in all."""
PLAIN_STEPS = 3000
"""Of which the first are on conversations without the system prompt (see train.train)."""
PROBE_EVERY = 500
PROBE_SIZE = 16
BATCH = 16
LEARNING_RATE = 3e-3
WARMUP = 100

MODEL_NAME = "shim-tiny"
