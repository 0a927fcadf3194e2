"""A llama-architecture decoder in PyTorch whose weights map one to one onto llama.cpp's ``llama`` graph.

What has to match llama.cpp exactly, and does:
- RMSNorm ``x / sqrt(mean(x^2) + eps) * w`` before attention, before the FFN and before the output;
- rotary embeddings in llama.cpp's "normal" layout, which rotates adjacent pairs ``(x[2i], x[2i+1])`` by
  ``pos * base^(-2i/head_dim)``. Hugging Face's llama rotates ``(x[i], x[i + d/2])`` instead, which is why
  ``convert_hf_to_gguf.py`` permutes the Q and K rows; this model uses llama.cpp's layout from the start,
  so its Q and K weights are written unpermuted;
- SwiGLU: ``down(silu(gate(x)) * up(x))``;
- the output projection tied to the token embedding (llama.cpp falls back to ``token_embd`` when a llama
  GGUF has no ``output.weight``).

`TinyLlama.forward` can attend to a fixed prefix's keys and values computed without gradients: every
training conversation starts with the same system prompt, so it is run once per step instead of once per
row, and only the conversation itself is back-propagated.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

KV = list[tuple[torch.Tensor, torch.Tensor]]


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope(x: torch.Tensor, positions: torch.Tensor, base: float) -> torch.Tensor:
    """Rotate adjacent pairs of the last dimension of ``x`` (batch, heads, time, head_dim)."""
    half = x.shape[-1] // 2
    freqs = base ** (-torch.arange(half, dtype=torch.float32) * 2 / x.shape[-1])
    angles = positions.float()[:, None] * freqs[None, :]  # (time, half)
    cos, sin = angles.cos(), angles.sin()
    pairs = x.reshape(*x.shape[:-1], half, 2)
    x0, x1 = pairs[..., 0], pairs[..., 1]
    return torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self, d: int, n_head: int, n_ff: int, eps: float, rope_base: float) -> None:
        super().__init__()
        self.n_head, self.rope_base = n_head, rope_base
        self.attn_norm, self.ffn_norm = RMSNorm(d, eps), RMSNorm(d, eps)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
        self.gate, self.up = nn.Linear(d, n_ff, bias=False), nn.Linear(d, n_ff, bias=False)
        self.down = nn.Linear(n_ff, d, bias=False)

    def forward(
        self, x: torch.Tensor, positions: torch.Tensor, past: tuple[torch.Tensor, torch.Tensor] | None
    ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        b, t, d = x.shape
        h = self.attn_norm(x)

        def heads(proj: nn.Linear) -> torch.Tensor:
            return proj(h).view(b, t, self.n_head, d // self.n_head).transpose(1, 2)

        q = rope(heads(self.q), positions, self.rope_base)
        k = rope(heads(self.k), positions, self.rope_base)
        v = heads(self.v)
        own = (k, v)
        causal = torch.ones(t, t, dtype=torch.bool).tril()
        if past is not None:
            pk, pv = past
            k = torch.cat((pk.expand(b, -1, -1, -1), k), dim=2)
            v = torch.cat((pv.expand(b, -1, -1, -1), v), dim=2)
            causal = torch.cat((torch.ones(t, pk.shape[2], dtype=torch.bool), causal), dim=1)
        attended = F.scaled_dot_product_attention(q, k, v, attn_mask=causal)
        x = x + self.o(attended.transpose(1, 2).reshape(b, t, d))
        h = self.ffn_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h)), own


class TinyLlama(nn.Module):
    def __init__(self, n_vocab: int, d: int, n_head: int, n_layer: int, n_ff: int, eps: float, rope_base: float):
        super().__init__()
        self.embed = nn.Embedding(n_vocab, d)
        self.blocks = nn.ModuleList(Block(d, n_head, n_ff, eps, rope_base) for _ in range(n_layer))
        self.norm = RMSNorm(d, eps)
        nn.init.normal_(self.embed.weight, std=0.02)
        for block in self.blocks:
            for linear in (block.q, block.k, block.v, block.gate, block.up):
                nn.init.normal_(linear.weight, std=0.02)
            for linear in (block.o, block.down):  # scaled so the residual stream starts small
                nn.init.normal_(linear.weight, std=0.02 / (2 * n_layer) ** 0.5)

    def forward(self, tokens: torch.Tensor, past: KV | None = None) -> tuple[torch.Tensor, KV]:
        """Logits for ``tokens`` (batch, time), after the prefix whose keys/values are ``past``."""
        start = 0 if past is None else past[0][0].shape[2]
        positions = torch.arange(start, start + tokens.shape[1])
        x = self.embed(tokens)
        cache: KV = []
        for n, block in enumerate(self.blocks):
            x, kv = block(x, positions, None if past is None else past[n])
            cache.append(kv)
        return self.norm(x) @ self.embed.weight.T, cache

    def gguf_tensors(self) -> dict[str, np.ndarray]:
        """The weights under llama.cpp's tensor names (numpy shape = ggml ne reversed, as Linear stores it)."""

        def arr(t: torch.Tensor) -> np.ndarray:
            return t.detach().float().numpy().copy()

        tensors = {"token_embd.weight": arr(self.embed.weight), "output_norm.weight": arr(self.norm.weight)}
        for n, block in enumerate(self.blocks):
            names = {"attn_norm": block.attn_norm, "ffn_norm": block.ffn_norm, "attn_q": block.q,
                     "attn_k": block.k, "attn_v": block.v, "attn_output": block.o, "ffn_gate": block.gate,
                     "ffn_up": block.up, "ffn_down": block.down}  # fmt: skip
            for name, module in names.items():
                tensors[f"blk.{n}.{name}.weight"] = arr(module.weight)
        return tensors
