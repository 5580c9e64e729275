"""SFT throughput: TRL's default SFTTrainer settings against ours, same model, data and GPU.

    # one H200: all four modes (each in a fresh process), then the summary (roughly 7 minutes, estimated
    # from the step times of the committed runs; compiling alone takes 1-1.5 minutes)
    PYTHONPATH=$PWD python benchmarks/train_throughput.py --out results/train-throughput/h200
    # two H200s: our settings on 1 GPU, then DDP on 2, and the scaling efficiency
    PYTHONPATH=$PWD python benchmarks/train_throughput.py --out results/train-throughput/h200x2 --ddp 2
    # CPU smoke test of the whole script on a tiny model
    PYTHONPATH=$PWD python benchmarks/train_throughput.py --tiny --out /tmp/tp

The model is a random-init Qwen3-8B architecture built from its config in bf16 (throughput does
not depend on the weights' values, so nothing is downloaded). The data are synthetic token-id
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
  tuned_liger: tuned plus liger-kernel's Triton RMSNorm, SwiGLU and RoPE (run when liger-kernel is
               installed; skipped otherwise).
  tuned_compile: tuned plus torch.compile on each decoder layer after PEFT wrapped the model
               (kernelmosaic.train.regional; `model.compile: layers` in a `kmosaic train` config).
               Compiling happens in the warm-up steps: give it --warmup 3 or more.
TRL 1.16's fused LM head (chunked cross-entropy, no full logits) is on in all: it is TRL's default.

FLOP convention (MFU = model FLOP/s / (989e12 x GPUs), H200 dense bf16 peak):
  per trained (non-padding) token: 4 * N_linear       (LoRA: forward 2N + input-gradient 2N; the
                                                      frozen base weights get no weight gradient)
                                 + 12 * layers * heads * head_dim * ctx   (causal attention, fwd
                                                      4*h*d*ctx, backward twice that)
  N_linear: every nn.Linear weight of the base model incl. lm_head (embedding lookup excluded);
  ctx = sum L(L+1)/2 / sum L over the dataset's rows (the mean causal context per token).
  LoRA adapter FLOPs and the recomputation of gradient checkpointing are not counted.
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
MODES = ("trl_default", "tuned", "tuned_liger", "tuned_compile")
QWEN3_8B = dict(model_type="qwen3", vocab_size=151936, hidden_size=4096, intermediate_size=12288,
                num_hidden_layers=36, num_attention_heads=32, num_key_value_heads=8, head_dim=128,
                max_position_embeddings=40960, rope_theta=1000000.0, rms_norm_eps=1e-6, tie_word_embeddings=False)
TINY = dict(model_type="qwen3", vocab_size=512, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, head_dim=16, max_position_embeddings=4096,
            tie_word_embeddings=False)


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


def flops_per_token(model_cfg: dict, n_linear: int, ctx: float, lora: bool = True) -> float:
    attn = 12 * model_cfg["num_hidden_layers"] * model_cfg["num_attention_heads"] * model_cfg["head_dim"] * ctx
    return (4 if lora else 6) * n_linear + attn


def count_linear(model) -> int:
    import torch

    return sum(m.weight.numel() for name, m in model.named_modules()
               if isinstance(m, torch.nn.Linear) and "lora_" not in name)


def varlen_check() -> dict:
    """The varlen kernel against SDPA run per sequence: packed sequences must not see each other."""
    import torch
    import torch.nn.functional as F

    from kernelmosaic.train.attention import NAME, varlen_attention_forward

    torch.manual_seed(0)
    lens, h, kvh, d = [37, 300, 5, 1000], 8, 2, 128
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
    return {"kernel": NAME, "max_abs_err_vs_sdpa": err, "ok": err < 2e-2}


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
                timer._last_t, timer._last_tok = t, tok
                if len(timer.steps) == timer.warmup:  # the budget is for measured steps, not for compiling
                    timer._start = t
                if t - timer._start > timer.budget_s and len(timer.steps) >= timer.min_steps:
                    control.should_training_stop = True

        return _CB()


def run_mode(args) -> dict:
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
    model_cfg = dict(TINY if args.tiny else QWEN3_8B)
    rows = synthetic_rows(args.n_examples, model_cfg["vocab_size"], args.max_length, args.median_length)
    lens = [len(r["input_ids"]) for r in rows]
    ctx = sum(L * (L + 1) / 2 for L in lens) / sum(lens)

    tuned = args.mode.startswith("tuned")
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
            check = varlen_check()
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
        "mode": args.mode, "world_size": world, "error": error,
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
            "lora": {"r": 16, "alpha": 32, "dropout": 0.0, "target_modules": "all-linear"},
        },
        "varlen_check": check,
        "model": {"arch": "Qwen3ForCausalLM (random init)", **model_cfg, "n_linear_params": n_linear},
        "data": {"n_examples": len(rows), "mean_len": sum(lens) / len(lens), "median_len": sorted(lens)[len(lens) // 2],
                 "max_len": max(lens), "ctx_per_token": ctx, "assistant_fraction": 0.4},
        "flops_per_token": fpt,
        "flop_convention": "4*N_linear (LoRA: fwd 2N + input-grad 2N, no base weight grads) + "
                           "12*layers*heads*head_dim*ctx (causal attention fwd+bwd); per non-padding token; "
                           "no recompute, no LoRA FLOPs; peak 989 TFLOP/s per H200",
        "env": env_info(),
        "steps": timer.steps,
    }
    if rank == 0:
        out = Path(args.out) / f"{args.mode}_{world}gpu.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(res, indent=2))
        print(json.dumps({k: res[k] for k in ("mode", "world_size", "tokens_per_s", "mfu", "peak_mem_gib", "error")}))
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
            "command": " ".join([Path(sys.argv[0]).name] + sys.argv[1:])}


def summarize(out: Path) -> dict:
    res = {p.stem: json.loads(p.read_text()) for p in sorted(out.glob("*gpu.json"))}
    s: dict = {"results": {k: {f: v.get(f) for f in ("tokens_per_s", "tokens_per_s_per_gpu", "mfu", "peak_mem_gib",
                                                         "step_s_median", "measured_steps", "error", "settings")}
                           for k, v in res.items()}}
    base = res.get("trl_default_1gpu")
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
        if f"scaling_{mode}" in s:
            sc = s[f"scaling_{mode}"]
            lines.append(f"{mode}, DDP on {sc['gpus']} GPUs: scaling efficiency {100 * sc['efficiency']:.1f} %")
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
    args = ap.parse_args()
    if args.tiny:
        args.max_length, args.median_length, args.n_examples = min(args.max_length, 256), 96, 64
        args.steps, args.warmup = min(args.steps, 3), 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.mode:
        run_mode(args)
        return
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
        runs = [([sys.executable, script, *passthrough, "--mode", m], env) for m in MODES]
    for cmd, run_env in runs:
        print("+", " ".join(cmd), flush=True)
        r = subprocess.run(cmd, env=run_env)
        if r.returncode != 0:
            print(f"exit status {r.returncode}: {' '.join(cmd)}", file=sys.stderr)
    summarize(out)


if __name__ == "__main__":
    main()
