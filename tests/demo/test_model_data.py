"""The synthetic conversations the demo model learns from (``benchmarks/tiny_model/data.py``)."""

from __future__ import annotations

from tests.demo.tiny_model import load

data = load("data")
recipe = load("recipe")


def test_held_out_requests_never_occur_in_training_and_some_use_words_training_never_saw() -> None:
    train, held = data.split(recipe.DATA_SEED, 3000, recipe.N_EVAL)
    assert len(held) == recipe.N_EVAL
    assert not {s.request for s in train} & {s.request for s in held}
    trained_words = " ".join(s.request for s in train)
    unseen = [w for w in data.HELD_OUT_KV if w not in trained_words]
    assert unseen == data.HELD_OUT_KV
    assert any(any(w in s.request for w in data.HELD_OUT_KV) for s in held)


def test_training_draws_invented_keys_so_the_model_learns_to_copy_rather_than_recall() -> None:
    train, _ = data.split(recipe.DATA_SEED, 3000, 10)
    keys = {s.arguments["key"] for s in train if s.tool in ("kv_set", "kv_get")}
    known = set(data.KV_WORDS)
    invented = {k for k in keys if not set(k.split("_")) <= known}
    assert len(invented) > len(keys) / 2


def test_every_conversation_ends_in_an_answer_that_quotes_the_tool_result() -> None:
    import random

    train, _ = data.split(recipe.DATA_SEED, 500, 10)
    rng = random.Random(0)
    for sample in train:
        messages = data.conversation(sample, rng)
        assert messages[0] == {"role": "user", "content": sample.request}
        if sample.tool is None:
            continue
        result = messages[2]["content"]
        assert result in messages[3]["content"] or messages[2]["is_error"]
