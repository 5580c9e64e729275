"""Offline stand-ins: a byte-level BPE tokenizer trained here and a random-init model from a config.

Nothing is downloaded, so CPU tests, the example config and the throughput benchmark run on a
machine with no hub access. The chat template is ChatML with ``{% generation %}`` markers around
each assistant reply *and its end-of-turn token*, which is what TRL's assistant-only loss needs
to train the model to stop. A reply's ``reasoning_content`` is rendered before it in
``<think>...</think>``, as Qwen3's template renders the final reply's thinking.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHAT_TEMPLATE = (
    "{% for m in messages %}"
    "{% if m['role'] == 'assistant' %}"
    "<|im_start|>assistant\n{% generation %}"
    "{% if m.get('reasoning_content') %}<think>\n{{ m['reasoning_content'] }}\n</think>\n\n{% endif %}"
    "{{ m['content'] }}<|im_end|>{% endgeneration %}\n"
    "{% else %}"
    "<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIAL_TOKENS = ["<unk>", "<|endoftext|>", "<|im_start|>", "<|im_end|>"]

# Enough kernel-flavoured text for the BPE merges to be useful; byte-level BPE encodes anything.
_CORPUS = [
    "import torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n",
    "__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y, long n) {\n"
    "    long i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = fmaxf(x[i], 0.f);\n}\n",
    "Your last candidate did not pass. The verifier said: INCORRECT, max abs error 0.5 at index 3.",
    "Here is a faster kernel: it uses shared memory tiles and vectorized float4 loads.",
    "You write fast, correct CUDA kernels for PyTorch programs. Write ModelNew for task level1/relu.",
]


def build_tokenizer(out_dir: str | Path | None = None, vocab_size: int = 512):
    """A byte-level BPE ``PreTrainedTokenizerFast`` with the ChatML template; saved to ``out_dir`` if given."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(_CORPUS * 8, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", eos_token="<|im_end|>",
                                   pad_token="<|endoftext|>", bos_token=None)
    fast.chat_template = CHAT_TEMPLATE
    if out_dir is not None:
        fast.save_pretrained(str(out_dir))
    return fast


def build_random_model(model_config: dict[str, Any], tokenizer=None, *, dtype: str | None = None,
                       attn_implementation: str | None = None, device: str | None = None, seed: int = 0):
    """A randomly initialized causal LM from ``{"model_type": "qwen3", ...config fields}``.

    ``vocab_size`` defaults to the tokenizer's size and the special token ids follow the tokenizer.
    """
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    fields = dict(model_config)
    model_type = fields.pop("model_type", None)
    if not model_type:
        raise ValueError("model.random_init needs a model_type (e.g. qwen3)")
    if tokenizer is not None:
        fields.setdefault("vocab_size", len(tokenizer))
        fields.setdefault("eos_token_id", tokenizer.eos_token_id)
        fields.setdefault("pad_token_id", tokenizer.pad_token_id)
    try:
        cfg = AutoConfig.for_model(model_type, **fields)
    except ValueError as e:
        raise ValueError(f"model.random_init: {e}") from None
    kw = {}
    if dtype:
        kw["dtype"] = getattr(torch, dtype)
    if attn_implementation:
        kw["attn_implementation"] = attn_implementation
    torch.manual_seed(seed)
    # built directly on the target device: an 8B model initialized on the CPU takes minutes
    with torch.device(device or "cpu"):
        return AutoModelForCausalLM.from_config(cfg, **kw)
