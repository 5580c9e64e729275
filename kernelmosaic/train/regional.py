"""Regional compilation: torch.compile on each transformer block rather than on the whole model.

Every decoder layer runs the same code, so one compiled graph serves all of them (parameters are
graph inputs), and compiling takes one layer's time instead of the whole model's. What it buys
in training is fusion of the elementwise work around the matmuls (RMSNorm, RoPE, SwiGLU, LoRA's
scale-and-add), forward and backward. The packed-attention kernel stays outside the graph
(``attention._outside_graphs``).
"""

from __future__ import annotations


def decoder_layers(model) -> list:
    """The model's transformer blocks (transformers names their classes ``*DecoderLayer``)."""
    return [m for m in model.modules() if type(m).__name__.endswith("DecoderLayer")]


def compile_layers(model, *, dynamic: bool = True) -> int:
    """Compile every decoder layer of ``model`` in place (call it after PEFT wrapped the model, so
    the LoRA adapters are inside the graphs); returns how many. ``dynamic``: the token count of
    packed batches changes every step, so the graph is traced with a symbolic length from the
    start instead of recompiling once per new length."""
    import torch

    layers = decoder_layers(model)
    if not layers:
        raise ValueError(f"{type(model).__name__} has no *DecoderLayer modules to compile")
    cfg = torch._dynamo.config
    # a per-layer guard (a layer index read in forward) costs one graph per layer: allow that
    # many rather than silently falling back to eager after the default limit of 8
    for name in ("recompile_limit", "cache_size_limit"):
        if hasattr(cfg, name):
            setattr(cfg, name, max(getattr(cfg, name), len(layers) + 8))
    for layer in layers:
        layer.compile(dynamic=dynamic)
    return len(layers)
