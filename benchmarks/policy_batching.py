"""The in-process transformers policy served one request at a time or batched, side by side:

    python benchmarks/policy_batching.py --device cpu --requests 8 --threads 4 --batch-size 4 \
        --prompt-tokens 2000 --new-tokens 32

A random-init model from a training config (default: the ablation's GPU model,
configs/train/small-qwen-gpu.yaml, with the offline tokenizer; nothing is downloaded) answers
``--requests`` prompts from ``--threads`` threads, as an episode runner's ``concurrency`` calls
it, once with ``batch_size=1`` and once with ``--batch-size``. It prints the wall time of each,
how many generate calls each made, and how many replies match (greedy decoding: in bf16 a row's
tokens can depend on its batch).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.agent import SamplingConfig, TransformersLLM  # noqa: E402
from kernelmosaic.train.config import load_config  # noqa: E402
from kernelmosaic.train.tiny import build_random_model, build_tokenizer  # noqa: E402


def serve(pol: TransformersLLM, prompts: list, threads: int) -> tuple[float, list[str], int]:
    calls = [0]
    real = pol.model.generate

    def counted(**kw):
        calls[0] += 1
        return real(**kw)

    pol.model.generate = counted
    out: dict[int, str] = {}
    todo = list(range(len(prompts)))
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                i = todo.pop(0)
            out[i] = pol.complete(prompts[i]).text

    t0 = time.perf_counter()
    ts = [threading.Thread(target=worker) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    wall = time.perf_counter() - t0
    pol.model.generate = real
    return wall, [out[i] for i in range(len(prompts))], calls[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default=str(ROOT / "configs" / "train" / "small-qwen-gpu.yaml"))
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--dtype", default=None, help="default: the config's")
    ap.add_argument("--requests", type=int, default=12)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--prompt-tokens", type=int, default=4000)
    ap.add_argument("--new-tokens", type=int, default=128)
    a = ap.parse_args()
    cfg = load_config(a.config)
    if cfg.model.random_init is None:
        sys.exit(f"error: {a.config} has no model.random_init (this benchmark downloads nothing)")
    dtype = a.dtype or cfg.model.dtype
    with tempfile.TemporaryDirectory() as d:
        tok = build_tokenizer(d)
        build_random_model(cfg.model.random_init, tok, dtype=dtype).save_pretrained(d)
        # prompts of about --prompt-tokens tokens, each different (a request's own number first)
        filler = (ROOT / "tests" / "data" / "tasks" / "relu.py").read_text()
        per = max(1, len(tok(filler, add_special_tokens=False)["input_ids"]))
        prompts = [[{"role": "user", "content": f"request {i}\n" + filler * max(1, a.prompt_tokens // per)}]
                   for i in range(a.requests)]
        sampling = SamplingConfig(temperature=0.0, max_tokens=a.new_tokens)
        rows = {}
        texts = {}
        for bs in (1, a.batch_size):
            pol = TransformersLLM(d, sampling=sampling, device=a.device, dtype=dtype, batch_size=bs)
            pol.model.generation_config.use_cache = True
            serve(pol, prompts[:1], 1)  # warm-up: the first call pays one-time costs
            wall, texts[bs], calls = serve(pol, prompts, a.threads)
            rows[f"batch_size={bs}"] = {"wall_s": round(wall, 2), "generate_calls": calls,
                                        "requests_per_s": round(a.requests / wall, 3)}
            del pol
        same = sum(x == y for x, y in zip(texts[1], texts[a.batch_size]))
    res = {"device": a.device, "dtype": dtype, "requests": a.requests, "threads": a.threads,
           "prompt_tokens": a.prompt_tokens, "new_tokens": a.new_tokens, **rows,
           "speedup": round(rows["batch_size=1"]["wall_s"] / rows[f"batch_size={a.batch_size}"]["wall_s"], 2),
           "same_replies": f"{same}/{a.requests}"}
    print(json.dumps(res))


if __name__ == "__main__":
    main()
