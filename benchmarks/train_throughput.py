"""SFT throughput: TRL's default SFTTrainer settings against ours, same model, data and GPU.

    # one H200: all four modes (each in a fresh process), then the summary (roughly 7 minutes, estimated
    # from the step times of the committed runs; compiling alone takes 1-1.5 minutes)
    PYTHONPATH=$PWD python benchmarks/train_throughput.py --out results/train-throughput/h200
    # two H200s: our settings on 1 GPU, then DDP on 2, and the scaling efficiency
    PYTHONPATH=$PWD python benchmarks/train_throughput.py --out results/train-throughput/h200x2 --ddp 2
    # CPU smoke test of the whole script on a tiny model
    PYTHONPATH=$PWD python benchmarks/train_throughput.py --tiny --out /tmp/tp
    # Qwen3.5 (gated-delta-net + full attention): padded against packed through fla's varlen
    # kernels (needs flash-linear-attention); --check first runs the packed-vs-alone check
    PYTHONPATH=$PWD python benchmarks/train_throughput.py --arch qwen3.5 --check --out results/train-throughput/h200-qwen35

The model is a random-init Qwen3-8B architecture built from its config in bf16 (throughput does
not depend on the weights' values, so nothing is downloaded). ``--arch qwen3.5``: a random-init
Qwen3.5 text model (``qwen3_5_text``, Qwen3_5ForCausalLM) shaped like Qwen3.5-9B's text tower,
taken from transformers' ``Qwen3_5TextConfig`` defaults (5.17 and 5.25 alike; its docstring calls
them "the Qwen3.5-9B style configuration"): 32 layers, hidden 4096, MLP 12288, vocab 248320,
every 4th layer full attention (16 query / 4 key-value heads of 256, output gate, partial RoPE)
and the other 24 gated-delta-net linear attention (16 key heads and 32 value heads of 128, causal
conv kernel 4), untied embeddings. The data are synthetic token-id
chats: lengths log-normal (median 1200, capped at --max-length), the last ~40 % of each row is the
assistant's (only those tokens carry loss, like assistant-only loss on our exports).

Modes (same LoRA: r=16, alpha=32, all linear layers, no dropout; same max_length):
  trl_default: SFTConfig defaults -- 8 rows per batch padded to the longest, gradient
               checkpointing on, SDPA attention (the model's default), no packing, data loading
               in the main process. Only max_length differs from TRL's 1024, so both modes train
               on the same tokens.
  tuned:       best-fit-decreasing packing, padding-free batches (--tuned-rows rows of
               --max-length, flattened), PyTorch's FlashAttention-2 varlen kernel
               (kernelmosaic.train.attention), no gradient checkpointing, 2 data-loader workers.
  padded:      tuned, but without packing: batches of --tuned-rows rows padded to the longest,
               SDPA attention. The difference to tuned is packing alone (qwen3.5: what a
               Qwen3.5 run does when its linear-attention layers cannot take packed rows).
  tuned_liger: tuned plus liger-kernel's Triton RMSNorm, SwiGLU and RoPE (run when liger-kernel is
               installed; skipped otherwise).
  tuned_compile: tuned plus torch.compile on each decoder layer after PEFT wrapped the model
               (kernelmosaic.train.regional; `model.compile: layers` in a `kmosaic train` config).
               Compiling happens in the warm-up steps: give it --warmup 3 or more.
TRL 1.16's fused LM head (chunked cross-entropy, no full logits) is on in all: it is TRL's default.
qwen3.5: tuned and tuned_compile need the packed linear-attention path
(kernelmosaic.train.linear_attention: fla's varlen convolution and delta rule); without
flash-linear-attention they are skipped (--tiny on the CPU uses its torch path). tuned_liger is
skipped (Liger's patch is for Qwen3). Padded modes run transformers' own GDN path (with fla
installed: fla's delta rule, torch's convolution). ``--no-fla`` hides fla from a run (what a
machine without it does: the torch reference of the delta rule; packed modes then skipped).

FLOP convention (MFU = model FLOP/s / (989e12 x GPUs), H200 dense bf16 peak):
  per trained (non-padding) token: 4 * N_linear       (LoRA: forward 2N + input-gradient 2N; the
                                                      frozen base weights get no weight gradient)
                                 + 12 * layers * heads * head_dim * ctx   (causal attention, fwd
                                                      4*h*d*ctx, backward twice that; qwen3.5:
                                                      the 8 full-attention layers only)
  N_linear: every nn.Linear weight of the base model incl. lm_head (embedding lookup excluded);
  ctx = sum L(L+1)/2 / sum L over the dataset's rows (the mean causal context per token).
  LoRA adapter FLOPs and the recomputation of gradient checkpointing are not counted.
  qwen3.5's gated-delta-net layers: their five projections (in_proj_qkv, in_proj_z, in_proj_a,
  in_proj_b, out_proj) are nn.Linear and count in N_linear like any other; the depthwise causal
  conv (Conv1d, 4 taps) and the delta-rule recurrence itself (per token about a few K x V
  state products per value head, independent of ctx) are not counted, so its MFU is a lower bound.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

H200_PEAK_BF16 = 989e12
MODES = ("trl_default", "padded", "tuned", "tuned_liger", "tuned_compile")
DEFAULT_MODES = {"qwen3": ("trl_default", "tuned", "tuned_liger", "tuned_compile"),
                 "qwen3.5": ("trl_default", "padded", "tuned", "tuned_compile")}
QWEN3_8B = dict(model_type="qwen3", vocab_size=151936, hidden_size=4096, intermediate_size=12288,
                num_hidden_layers=36, num_attention_heads=32, num_key_value_heads=8, head_dim=128,
                max_position_embeddings=40960, rope_theta=1000000.0, rms_norm_eps=1e-6, tie_word_embeddings=False)
TINY = dict(model_type="qwen3", vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, head_dim=16, max_position_embeddings=4096,
            tie_word_embeddings=False)
# Qwen3_5TextConfig's defaults (transformers 5.17/5.25), written out so a later release's
# defaults cannot change the benchmark's model; layer_types: 3 linear-attention layers, then one
# full-attention layer (full_attention_interval 4), 8 times
_QWEN35_LAYERS = (["linear_attention"] * 3 + ["full_attention"]) * 8
QWEN35_9B = dict(model_type="qwen3_5_text", vocab_size=248320, hidden_size=4096, intermediate_size=12288,
                 num_hidden_layers=32, num_attention_heads=16, num_key_value_heads=4, head_dim=256,
                 linear_conv_kernel_dim=4, linear_key_head_dim=128, linear_value_head_dim=128,
                 linear_num_key_heads=16, linear_num_value_heads=32, layer_types=_QWEN35_LAYERS,
                 max_position_embeddings=32768, rms_norm_eps=1e-6, tie_word_embeddings=False)
TINY35 = dict(model_type="qwen3_5_text", vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=4,
              num_attention_heads=4, num_key_value_heads=2, head_dim=16, linear_key_head_dim=16,
              linear_value_head_dim=16, linear_num_key_heads=2, linear_num_value_heads=4,
              layer_types=["linear_attention"] * 3 + ["full_attention"], max_position_embeddings=4096,
              tie_word_embeddings=False)
# the packed-vs-alone check: the 9B's attention and linear-attention heads (the same kernels and
# autotuned configs as the benchmark) on 4 layers of a narrower model
CHECK35 = dict(QWEN35_9B, vocab_size=4096, hidden_size=1024, intermediate_size=2048, num_hidden_layers=4,
               layer_types=["linear_attention"] * 3 + ["full_attention"])
ARCHS = {"qwen3": (QWEN3_8B, TINY), "qwen3.5": (QWEN35_9B, TINY35)}


def synthetic_rows(n: int, vocab: int, max_len: int, median: int, seed: int = 0) -> list[dict]:
    import numpy as np

    rng = np.random.default_rng(seed)
    lens = np.clip(np.exp(rng.normal(math.log(median), 0.6, n)).astype(int), 64, max_len)
    rows = []
    for L in lens:
        ids = rng.integers(10, vocab, int(L)).tolist()
        n_prompt = int(L * 0.6)
        rows.append({"input_ids": ids, "assistant_masks": [0] * n_prompt + [1] * (int(L) - n_prompt)})
    return rows


def attention_layers(model_cfg: dict) -> int:
    """Layers with softmax attention: all of them, or those layer_types calls full_attention."""
    types = model_cfg.get("layer_types")
    return sum(t == "full_attention" for t in types) if types else model_cfg["num_hidden_layers"]


def flops_per_token(model_cfg: dict, n_linear: int, ctx: float, lora: bool = True) -> float:
    attn = 12 * attention_layers(model_cfg) * model_cfg["num_attention_heads"] * model_cfg["head_dim"] * ctx
    return (4 if lora else 6) * n_linear + attn


def count_linear(model) -> int:
    import torch

    return sum(m.weight.numel() for name, m in model.named_modules()
               if isinstance(m, torch.nn.Linear) and "lora_" not in name)


def varlen_check(h: int = 8, kvh: int = 2, d: int = 128) -> dict:
    """The varlen kernel against SDPA run per sequence: packed sequences must not see each other.
    ``h``/``kvh``/``d``: query heads, key-value heads, head dim (qwen3.5: 16, 4, 256)."""
    import torch
    import torch.nn.functional as F

    from kernelmosaic.train.attention import NAME, varlen_attention_forward

    torch.manual_seed(0)
    lens = [37, 300, 5, 1000]
    T = sum(lens)
    q = torch.randn(1, h, T, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    k = torch.randn(1, kvh, T, d, device="cuda", dtype=torch.bfloat16)
    v = torch.randn(1, kvh, T, d, device="cuda", dtype=torch.bfloat16)
    cu = torch.tensor([0] + list(torch.tensor(lens).cumsum(0)), dtype=torch.int32)
    try:
        out, _ = varlen_attention_forward(None, q, k, v, None, scaling=d ** -0.5, cu_seq_lens_q=cu, cu_seq_lens_k=cu,
                                          max_length_q=max(lens), max_length_k=max(lens))
        out.float().square().sum().backward()  # training needs its backward too
    except Exception as e:  # noqa: BLE001 - any failure means: do not use it
        return {"kernel": NAME, "ok": False, "error": f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"}
    out = out.detach()
    err = 0.0
    for a, b in zip(cu[:-1].tolist(), cu[1:].tolist()):
        ref = F.scaled_dot_product_attention(q.detach()[:, :, a:b], k[:, :, a:b].repeat_interleave(h // kvh, 1),
                                             v[:, :, a:b].repeat_interleave(h // kvh, 1), is_causal=True)
        err = max(err, (out[0, a:b] - ref[0].transpose(0, 1)).abs().max().item())
    return {"kernel": NAME, "heads": h, "kv_heads": kvh, "head_dim": d, "max_abs_err_vs_sdpa": err, "ok": err < 2e-2}


def linear_attention_check(model_cfg: dict | None = None, device: str = "cuda", dtype: str = "bfloat16",
                           lengths=None, tol: float = 0.05) -> dict:
    """Packed rows against each sequence alone on a small Qwen3.5 (``CHECK35``), three ways: with
    the packed path of kernelmosaic.train.linear_attention (fla's varlen kernels on CUDA); with
    transformers' own functions (no patch: on the H200, fla's delta rule with cu_seqlens and torch's
    convolution); and with our convolution but transformers' delta rule (does transformers pass
    the boundaries to fla?). See ``linear_attention.packed_check`` for what is compared."""
    import torch

    from kernelmosaic.train import linear_attention as LA
    from kernelmosaic.train.attention import register, varlen_available
    from kernelmosaic.train.tiny import build_random_model

    cfg = dict(model_cfg or CHECK35)
    cuda = device == "cuda"
    attn = register() if cuda and varlen_available() else "sdpa"
    model = build_random_model(cfg, None, dtype=dtype, attn_implementation=attn, device=device)
    LA.slow_decay(model)  # so a delta-rule state carried across a boundary shows
    kw = {"tol": tol} if lengths is None else {"tol": tol, "lengths": lengths}
    mt = cfg["model_type"]
    out = {"model": {k: v for k, v in cfg.items() if k != "layer_types"}, "attn_implementation": attn, "dtype": dtype,
           "fla": _fla_version()}
    if cuda:  # fla's kernel itself against the torch reference: what #640 gets wrong
        out["delta_rule_vs_torch"] = LA.delta_rule_check(tol=tol)
    LA.uninstall(mt)
    try:
        LA.install(mt)
        out["packed_path"] = LA.packed_check(model, **kw)
        LA.uninstall(mt)
        out["transformers_as_is"] = LA.packed_check(model, **kw)
        LA.install(mt, delta_rule=False)
        out["our_conv_transformers_delta_rule"] = LA.packed_check(model, **kw)
    finally:
        LA.uninstall(mt)
    if cuda:
        out["varlen_attention"] = varlen_check(cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["head_dim"])
    del model
    if cuda:
        torch.cuda.empty_cache()
    return out


def _fla_version() -> str | None:
    from kernelmosaic.train.linear_attention import fla_ops

    if fla_ops() is None:
        return None
    import fla

    return getattr(fla, "__version__", "installed")


def block_fla() -> None:
    """Make ``import fla`` fail in this process (before transformers is imported), as on a
    machine without flash-linear-attention."""
    import importlib.abc

    class _Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "fla" or name.startswith("fla."):
                raise ImportError(f"{name} hidden by --no-fla")
            return None

    sys.meta_path.insert(0, _Block())


class Timer:
    """A TrainerCallback: wall time and trained tokens per optimizer step. A step's time runs from
    the end of the previous step to the end of this one, so data loading and the optimizer count."""

    def __init__(self, budget_s: float, min_steps: int, warmup: int = 0):
        self.budget_s, self.min_steps, self.warmup = budget_s, min_steps, warmup
        self.trainer = None
        self.steps: list[dict] = []
        self._last_t = self._last_tok = self._start = None

    def make(self):
        import torch
        from transformers import TrainerCallback

        timer = self

        def now():
            if torch.cuda.is_available():
                torch.cuda.synchronize()
            return time.perf_counter()

        class _CB(TrainerCallback):
            def on_train_begin(self, args, state, control, **kw):
                timer._start = timer._last_t = now()
                timer._last_tok = timer.trainer._total_train_tokens

            def on_step_end(self, args, state, control, **kw):
                t, tok = now(), timer.trainer._total_train_tokens  # TRL's count: non-padding tokens, all ranks
                timer.steps.append({"step": state.global_step, "s": t - timer._last_t, "tokens": tok - timer._last_tok})
                # one line per step on stderr: a run stopped by its time limit writes no result file,
                # and these lines are then the only record of where its time went (compiling vs steady)
                print(f"step {state.global_step}: {timer.steps[-1]['s']:.2f} s, {timer.steps[-1]['tokens']} tokens",
                      file=sys.stderr, flush=True)
                timer._last_t, timer._last_tok = t, tok
                if len(timer.steps) == timer.warmup:  # the budget is for measured steps, not for compiling
                    timer._start = t
                if t - timer._start > timer.budget_s and len(timer.steps) >= timer.min_steps:
                    control.should_training_stop = True

        return _CB()


def fla_setup(args) -> dict:
    """--no-fla and --fla-unguarded, in each mode's and the check's own process, before anything
    imports transformers' modeling code. Returns what the result files record."""
    if args.no_fla:
        block_fla()
        return {}
    from kernelmosaic.train import linear_attention as LA

    refusal = LA.fla_refusal()
    if refusal and args.fla_unguarded:
        LA.unguard_fla()
        return {"fla_refusal_lifted": refusal}
    if refusal and args.arch == "qwen3.5":
        raise SystemExit(f"{refusal}. --fla-unguarded lifts the refusal for a measurement (the check then "
                         f"compares fla's gradients with the torch reference), --no-fla runs without fla")
    return {}


def run_mode(args) -> dict:
    fla_flags = fla_setup(args)
    import torch
    from datasets import Dataset
    from peft import LoraConfig
    from trl import SFTConfig, SFTTrainer

    from kernelmosaic.train.attention import register, varlen_available
    from kernelmosaic.train.tiny import build_random_model, build_tokenizer

    t_start = time.perf_counter()
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    local = int(os.environ.get("LOCAL_RANK", "0"))
    cuda = torch.cuda.is_available() and not args.tiny
    if cuda:
        torch.cuda.set_device(local)
    full, tiny = ARCHS[args.arch]
    model_cfg = dict(tiny if args.tiny else full)
    rows = synthetic_rows(args.n_examples, model_cfg["vocab_size"], args.max_length, args.median_length)
    lens = [len(r["input_ids"]) for r in rows]
    ctx = sum(L * (L + 1) / 2 for L in lens) / sum(lens)

    tuned = args.mode.startswith("tuned")
    linear = attention_layers(model_cfg) < model_cfg["num_hidden_layers"]
    packed_path = None
    if linear and args.mode == "tuned_liger":
        print("tuned_liger: Liger's patch is for Qwen3, not this architecture; skipped", file=sys.stderr)
        return {}
    if linear and tuned:
        from transformers import AutoConfig

        from kernelmosaic.train import linear_attention

        # the same decision as `kmosaic train` (sft.decide_packing): packed rows only where the
        # linear-attention layers keep them apart
        if linear_attention.enable(AutoConfig.for_model(**model_cfg)):
            packed_path = f"fla {_fla_version()} varlen (kernelmosaic.train.linear_attention)"
        elif args.tiny:  # a CPU smoke test without fla: the torch path, correct and slow
            linear_attention.install(model_cfg["model_type"])
            packed_path = "torch (kernelmosaic.train.linear_attention, no fla)"
        else:
            print(f"{args.mode}: flash-linear-attention does not import: packed rows would leak across "
                  "sequences in the linear-attention layers; skipped", file=sys.stderr)
            return {}
    liger = None
    if args.mode == "tuned_liger":
        try:
            import liger_kernel

            liger = getattr(liger_kernel, "__version__", None) or "installed"
        except ImportError:
            print("tuned_liger: liger-kernel is not installed; skipped", file=sys.stderr)
            return {}
    check = None
    attn = "sdpa"
    if tuned and cuda:
        if varlen_available():
            check = varlen_check(model_cfg["num_attention_heads"], model_cfg["num_key_value_heads"], model_cfg["head_dim"])
            attn = register() if check["ok"] else "sdpa"
        else:
            check = {"kernel": None, "note": "torch.nn.attention.varlen unavailable: SDPA on packed rows"}
    tok = build_tokenizer()
    t_model = time.perf_counter()
    model = build_random_model(model_cfg, None, dtype="bfloat16" if cuda else "float32", attn_implementation=attn,
                               device=f"cuda:{local}" if cuda else "cpu")
    model.config.pad_token_id = tok.pad_token_id
    if liger:
        # Liger's Triton RMSNorm, SwiGLU and RoPE; the LM head stays TRL's fused one
        from liger_kernel.transformers import apply_liger_kernel_to_qwen3

        apply_liger_kernel_to_qwen3(rope=True, rms_norm=True, swiglu=True, cross_entropy=False,
                                    fused_linear_cross_entropy=False, model=model)
    model_init_s = time.perf_counter() - t_model
    print(f"{args.mode}: model built in {model_init_s:.1f} s", file=sys.stderr, flush=True)
    n_linear = count_linear(model)

    common = dict(output_dir=str(Path(args.out) / f"_trainer_{args.mode}_{world}"), max_length=args.max_length,
                  max_steps=args.warmup + args.steps, report_to="none", save_strategy="no", logging_steps=10 ** 6,
                  seed=0, disable_tqdm=rank != 0,
                  ddp_find_unused_parameters=False)
    if not cuda:
        common.update(use_cpu=True, bf16=False)
    if tuned:
        sft = SFTConfig(**common, packing=True, packing_strategy="bfd", per_device_train_batch_size=args.tuned_rows,
                        gradient_checkpointing=args.tuned_gc, dataloader_num_workers=2 if cuda else 0)
    elif args.mode == "padded":  # tuned less packing: rows padded to the batch's longest
        sft = SFTConfig(**common, per_device_train_batch_size=args.tuned_rows, gradient_checkpointing=args.tuned_gc,
                        dataloader_num_workers=2 if cuda else 0)
    else:
        sft = SFTConfig(**common)  # batch 8, padding, gradient checkpointing on: TRL's defaults
    lora = LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules="all-linear", task_type="CAUSAL_LM")
    trainer = SFTTrainer(model=model, args=sft, train_dataset=Dataset.from_list(rows), processing_class=tok,
                         peft_config=lora)
    compiled = 0
    if args.mode == "tuned_compile":
        from kernelmosaic.train.regional import compile_layers

        compiled = compile_layers(trainer.model)
    timer = Timer(args.budget_s, args.warmup + 3, args.warmup)
    timer.trainer = trainer
    trainer.add_callback(timer.make())
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    error = None
    try:
        trainer.train()
    except torch.OutOfMemoryError as e:
        error = f"out of memory: {' '.join(str(e).split())[:300]}"
    measured = timer.steps[args.warmup:]
    tokens = sum(s["tokens"] for s in measured)
    secs = sum(s["s"] for s in measured)
    fpt = flops_per_token(model_cfg, n_linear, ctx)
    tps = tokens / secs if secs else 0.0
    res = {
        "mode": args.mode, "arch": args.arch, "no_fla": args.no_fla, "world_size": world, "error": error,
        "tokens_per_s": tps, "tokens_per_s_per_gpu": tps / world,
        "mfu": tps * fpt / (H200_PEAK_BF16 * world) if cuda else None,
        "model_tflops_per_s_per_gpu": tps * fpt / world / 1e12,
        "measured_steps": len(measured), "warmup_steps": args.warmup, "measured_tokens": tokens, "measured_s": secs,
        "step_s_median": sorted(s["s"] for s in measured)[len(measured) // 2] if measured else None,
        "peak_mem_gib": torch.cuda.max_memory_allocated() / 2 ** 30 if cuda else None,
        "model_init_s": model_init_s, "wall_s": time.perf_counter() - t_start,
        "settings": {
            "attn_implementation": attn, "packing": sft.packing, "padding_free": bool(sft.packing or sft.padding_free),
            "per_device_train_batch_size": sft.per_device_train_batch_size, "max_length": sft.max_length,
            "gradient_checkpointing": sft.gradient_checkpointing, "bf16": sft.bf16, "liger_kernel": liger,
            "dataloader_num_workers": sft.dataloader_num_workers, "compiled_layers": compiled,
            "linear_attention_packed_path": packed_path, "fla": _fla_version() if linear else None,
            "lora": {"r": 16, "alpha": 32, "dropout": 0.0, "target_modules": "all-linear"},
        },
        "varlen_check": check,
        "model": {"arch": f"{type(model).__name__} (random init)", **model_cfg, "n_linear_params": n_linear,
                  "attention_layers": attention_layers(model_cfg)},
        "data": {"n_examples": len(rows), "mean_len": sum(lens) / len(lens), "median_len": sorted(lens)[len(lens) // 2],
                 "max_len": max(lens), "ctx_per_token": ctx, "assistant_fraction": 0.4},
        "flops_per_token": fpt,
        "flop_convention": "4*N_linear (LoRA: fwd 2N + input-grad 2N, no base weight grads) + "
                           "12*layers*heads*head_dim*ctx (causal attention fwd+bwd; full-attention layers only); "
                           "per non-padding token; no recompute, no LoRA FLOPs, linear-attention recurrence and "
                           "conv not counted; peak 989 TFLOP/s per H200",
        "env": {**env_info(), **fla_flags},
        "steps": timer.steps,
    }
    if rank == 0:
        out = Path(args.out) / f"{args.mode}{'_nofla' if args.no_fla else ''}_{world}gpu.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(res, indent=2))
        print(json.dumps({k: res[k] for k in ("mode", "world_size", "tokens_per_s", "mfu", "peak_mem_gib", "error")}))
    return res


def run_check(args) -> dict:
    """``linear_attention_check`` on the GPU (bf16, fla) or, with --tiny, on the CPU (float32, the
    torch path); writes check.json and prints one line per variant."""
    fla_flags = fla_setup(args)
    import torch

    cuda = torch.cuda.is_available() and not args.tiny
    t0 = time.perf_counter()
    if cuda:
        res = linear_attention_check()
    else:
        res = linear_attention_check(TINY35, device="cpu", dtype="float32", lengths=(37, 100, 5, 64, 2))
    res["wall_s"] = time.perf_counter() - t0
    res["env"] = {**env_info(), **fla_flags}
    (Path(args.out) / "check.json").write_text(json.dumps(res, indent=2))
    for k in ("delta_rule_vs_torch", "packed_path", "transformers_as_is", "our_conv_transformers_delta_rule", "varlen_attention"):
        if k in res:
            v = res[k]
            print(json.dumps({"check": k, **{f: v.get(f) for f in ("ok", "logits_rel_diff", "grad_rel_diff",
                                                                   "loss_max_abs_diff", "max_abs_err_vs_sdpa",
                                                                   "rel_diff", "error") if f in v}}))
    return res


def env_info() -> dict:
    import torch
    import transformers
    import trl
    import peft

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else platform.processor() or "cpu"
    return {"date_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"), "gpu": gpu,
            "gpus_visible": torch.cuda.device_count(), "torch": torch.__version__, "transformers": transformers.__version__,
            "trl": trl.__version__, "peft": peft.__version__, "python": platform.python_version(),
            "fla": _fla_version() if "fla" in sys.modules else None,
            "command": " ".join([Path(sys.argv[0]).name] + sys.argv[1:])}


def summarize(out: Path, not_run: list[str] | None = None) -> dict:
    res = {p.stem: json.loads(p.read_text()) for p in sorted(out.glob("*gpu.json"))}
    s: dict = {"results": {k: {f: v.get(f) for f in ("tokens_per_s", "tokens_per_s_per_gpu", "mfu", "peak_mem_gib",
                                                         "step_s_median", "measured_steps", "error", "settings")}
                           for k, v in res.items()}}
    base = res.get("trl_default_1gpu")
    padded = res.get("padded_1gpu")
    for mode in ("tuned", "tuned_compile"):
        run = res.get(f"{mode}_1gpu")
        if padded and run and padded["tokens_per_s"]:
            s[f"speedup_{mode}_vs_padded"] = run["tokens_per_s"] / padded["tokens_per_s"]
    for mode in MODES[1:]:
        tuned = res.get(f"{mode}_1gpu")
        if base and tuned and base["tokens_per_s"]:
            s[f"speedup_{mode}_vs_trl_default"] = tuned["tokens_per_s"] / base["tokens_per_s"]
        ddp = [v for k, v in res.items() if v["mode"] == mode and v["world_size"] > 1]
        if tuned and ddp and tuned["tokens_per_s"]:
            d = ddp[0]
            s[f"scaling_{mode}"] = {"gpus": d["world_size"], "tokens_per_s": d["tokens_per_s"],
                                    "efficiency": d["tokens_per_s"] / (d["world_size"] * tuned["tokens_per_s"])}
    any_res = next(iter(res.values()), None)
    if any_res:
        s["flop_convention"] = any_res["flop_convention"]
        s["env"] = any_res["env"]
    check_file = out / "check.json"
    if check_file.exists():  # --check: the packed-vs-alone verdicts, one per variant
        check = json.loads(check_file.read_text())
        s["check"] = {k: {f: v.get(f) for f in ("ok", "logits_rel_diff", "grad_rel_diff", "max_abs_err_vs_sdpa", "error")
                          if f in v}
                      for k, v in check.items() if isinstance(v, dict) and "ok" in v}
    if not_run:
        s["not_run"] = not_run
    (out / "summary.json").write_text(json.dumps(s, indent=2))
    lines = ["| run | tokens/s | tokens/s/GPU | MFU | peak GiB | median step s |", "|---|---|---|---|---|---|"]
    for k, v in s["results"].items():
        mfu = "-" if v["mfu"] is None else f"{100 * v['mfu']:.1f} %"
        mem = "-" if v["peak_mem_gib"] is None else f"{v['peak_mem_gib']:.1f}"
        step = "-" if v["step_s_median"] is None else f"{v['step_s_median']:.3f}"
        lines.append(f"| {k} | {v['tokens_per_s']:.0f} | {v['tokens_per_s_per_gpu']:.0f} | {mfu} | {mem} | {step} |"
                     + (f" error: {v['error']}" if v["error"] else ""))
    lines.append("")
    for mode in MODES[1:]:
        if f"speedup_{mode}_vs_trl_default" in s:
            lines.append(f"{mode} / trl_default: {s[f'speedup_{mode}_vs_trl_default']:.2f}x tokens/s")
        if f"speedup_{mode}_vs_padded" in s:
            lines.append(f"{mode} / padded: {s[f'speedup_{mode}_vs_padded']:.2f}x tokens/s")
        if f"scaling_{mode}" in s:
            sc = s[f"scaling_{mode}"]
            lines.append(f"{mode}, DDP on {sc['gpus']} GPUs: scaling efficiency {100 * sc['efficiency']:.1f} %")
    for k, v in s.get("check", {}).items():
        nums = ", ".join(f"{f} {v[f]:.2e}" for f in ("logits_rel_diff", "grad_rel_diff", "max_abs_err_vs_sdpa")
                         if v.get(f) is not None)
        lines.append(f"check {k}: {'ok' if v['ok'] else 'FAILED'}" + (f" ({nums})" if nums else "")
                     + (f" error: {v['error']}" if v.get("error") else ""))
    lines += [f"not run: {x}" for x in s.get("not_run", [])]
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="Folder for the JSON results and summary.")
    ap.add_argument("--mode", choices=MODES, help="Run one mode in this process (the default runs each in a fresh one).")
    ap.add_argument("--ddp", type=int, default=0, help="Run --ddp-mode on one GPU, then with DDP on this many "
                                                       "(accelerate launch); skips the other modes.")
    ap.add_argument("--ddp-mode", choices=MODES[1:], default="tuned")
    ap.add_argument("--tiny", action="store_true", help="A tiny model on the CPU: checks the script, measures nothing.")
    ap.add_argument("--steps", type=int, default=30, help="Measured optimizer steps per mode.")
    ap.add_argument("--warmup", type=int, default=3, help="Unmeasured steps first.")
    ap.add_argument("--budget-s", type=float, default=120.0, help="Stop a mode's training after this many seconds of measured steps.")
    ap.add_argument("--max-length", type=int, default=4096)
    ap.add_argument("--median-length", type=int, default=1200)
    ap.add_argument("--n-examples", type=int, default=1024)
    ap.add_argument("--tuned-rows", type=int, default=2, help="tuned: packed rows of max_length per device step.")
    ap.add_argument("--tuned-gc", action="store_true", help="tuned: keep gradient checkpointing on.")
    ap.add_argument("--arch", choices=sorted(ARCHS), default="qwen3",
                    help="qwen3: the Qwen3-8B shape; qwen3.5: the Qwen3.5-9B text tower (gated delta net).")
    ap.add_argument("--modes", help="Comma-separated modes for the default run (default: qwen3 "
                                    f"{','.join(DEFAULT_MODES['qwen3'])}; qwen3.5 {','.join(DEFAULT_MODES['qwen3.5'])}).")
    ap.add_argument("--no-fla", action="store_true",
                    help="Hide flash-linear-attention from the run (results named *_nofla_*).")
    ap.add_argument("--fla-unguarded", action="store_true",
                    help="Lift fla's refusal of Hopper with Triton < 3.7.1 (fla issue #640) in this run; the "
                         "check then compares fla's delta rule and its gradients with the torch reference.")
    ap.add_argument("--check", action="store_true", help="qwen3.5: first the packed-vs-alone check (check.json), "
                                                         "in its own process.")
    ap.add_argument("--check-only", action="store_true", help="Run only that check, in this process.")
    ap.add_argument("--time-limit-s", type=float, help="The whole run (check and modes, one process each) within "
                                                       "this many seconds: a mode still running then is stopped, "
                                                       "later ones are skipped, the summary says which.")
    args = ap.parse_args()
    if args.tiny:
        args.max_length, args.median_length, args.n_examples = min(args.max_length, 256), 96, 64
        args.steps, args.warmup = min(args.steps, 3), 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.check_only:
        run_check(args)
        return
    if args.mode:
        run_mode(args)
        return
    modes = args.modes.split(",") if args.modes else list(DEFAULT_MODES[args.arch])
    unknown = sorted(set(modes) - set(MODES))
    if unknown:
        ap.error(f"--modes: unknown {', '.join(unknown)} (known: {', '.join(MODES)})")
    # every flag but --ddp goes to the per-mode processes
    argv = sys.argv[1:]
    passthrough = [a for i, a in enumerate(argv) if not (a == "--ddp" or (i > 0 and argv[i - 1] == "--ddp")
                                                      or a.startswith("--ddp="))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    script = str(Path(__file__).resolve())
    if args.ddp > 1:
        one_gpu = {**env, "CUDA_VISIBLE_DEVICES": env.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0]}
        runs = [([sys.executable, script, *passthrough, "--mode", args.ddp_mode], one_gpu),
                ([sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", str(args.ddp),
                  "--num_machines", "1", "--mixed_precision", "bf16", "--dynamo_backend", "no",
                  script, *passthrough, "--mode", args.ddp_mode], env)]
    else:
        runs = [([sys.executable, script, *passthrough, "--mode", m], env) for m in modes]
    if args.check:
        runs.insert(0, ([sys.executable, script, *passthrough, "--check-only"], env))
    deadline = time.monotonic() + args.time_limit_s if args.time_limit_s else None
    not_run: list[str] = []
    for cmd, run_env in runs:
        name = "check" if cmd[-1] == "--check-only" else cmd[-1] + (" (DDP)" if "accelerate.commands.launch" in cmd else "")
        left = None if deadline is None else deadline - time.monotonic() - SUMMARY_S
        if left is not None and left < MIN_RUN_S:
            print(f"skipped, {args.time_limit_s:.0f} s time limit: {' '.join(cmd)}", file=sys.stderr)
            not_run.append(f"{name}: skipped (time limit)")
            continue
        print("+", " ".join(cmd), flush=True)
        started = time.time()
        rc = run_child(cmd, run_env, left)
        if rc is None:
            print(f"timed out after {left:.0f} s (--time-limit-s): {' '.join(cmd)}", file=sys.stderr)
            # a process can be stopped while it exits (worker pools shutting down), its result written
            wrote = any(f.stat().st_mtime >= started for f in [*out.glob("*gpu.json"), *out.glob("check.json")])
            not_run.append(f"{name}: stopped at the time limit" + (", after writing its result" if wrote else ""))
        elif rc != 0:
            print(f"exit status {rc}: {' '.join(cmd)}", file=sys.stderr)
    summarize(out, not_run)


SUMMARY_S, MIN_RUN_S = 5.0, 30.0  # --time-limit-s: kept for the summary; the least worth starting a run with


def run_child(cmd: list[str], env: dict, timeout_s: float | None) -> int | None:
    """Run one mode's process in its own process group; on the timeout (or when this process is
    told to stop) the whole group goes, data-loader and compile workers included. Returns the exit
    status, or None when it was stopped at the timeout."""
    import signal

    p = subprocess.Popen(cmd, env=env, start_new_session=True)

    def stop(signum=None, frame=None):
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if signum is not None:  # SIGTERM/SIGINT to us (an outer timeout): leave with the child stopped
            raise SystemExit(128 + signum)

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        return p.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        stop()
        p.wait()
        return None
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


if __name__ == "__main__":
    main()
