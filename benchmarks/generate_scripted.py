"""`kmosaic generate` over KernelBench tasks with scripted CUDA replies that need repair.

Each task's script: the first reply is the task's known-good kernel (tests/gpu/kernels) with
a compile error planted in its device code; a repair turn answers with the good kernel; the
optimization turn answers with it again. The run goes through the real pieces: the local
OpenAI-compatible server (real HTTP), the `openai` client, the Episode, the verifier on the
GPU, and the SQLite store. It stands in for a model, which this machine cannot reach.

    python benchmarks/generate_scripted.py --kernelbench DIR --store $OUT/gen.db --out $OUT/generate.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.agent import EpisodeConfig, OpenAILLM  # noqa: E402
from kernelmosaic.scale import generate  # noqa: E402
from kernelmosaic.agent.scripted_server import ScriptedServer  # noqa: E402
from kernelmosaic.data import Store  # noqa: E402
from kernelmosaic.task import load_task  # noqa: E402
from kernelmosaic.verify import TimingConfig, Verifier  # noqa: E402

KERNELS = ROOT / "tests" / "gpu" / "kernels"


def plant_compile_error(code: str) -> str:
    """An undeclared name on the first line of the first __global__ body."""
    m = re.search(r"__global__[^{]*\{", code)
    if not m:
        raise ValueError("no __global__ function to break")
    return code[: m.end()] + "\n    undeclared_accumulator += 1;" + code[m.end():]


def fenced(code: str, prose: str) -> str:
    return f"{prose}\n\n```python\n{code.rstrip()}\n```\n"


def script_for(good: str):
    broken = fenced(plant_compile_error(good), "Here is a first version.")
    fixed = fenced(good, "Fixed: the accumulator was never declared; it was not needed.")

    def reply(messages):
        last = messages[-1]["content"] if messages else ""
        if "COMPILE ERROR" in last or "Best correct kernel so far" in last:
            return fixed
        return broken

    return reply


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR"))
    ap.add_argument("--store", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--backend", default="nvrtc", choices=("nvrtc", "cuda"))
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    manifest = json.loads((KERNELS / "manifest.json").read_text())
    tasks, scripts = [], {}
    for g in manifest["gold"][: a.limit]:
        t = load_task(Path(a.kernelbench) / g["file"])
        tasks.append(t)
        scripts[t.key] = script_for((KERNELS / g["dir"] / f"{a.backend}.py").read_text())
    cfg = EpisodeConfig(backend=a.backend, policy="strict", max_repair=2, max_optimize=1,
                        timing=TimingConfig(enabled=True, n=30, compile=True))
    t0 = time.time()
    with ScriptedServer(scripts) as srv, Store(a.store) as store, Verifier(device="cuda") as v:
        policy = OpenAILLM("scripted-cuda-coder", base_url=srv.base_url, concurrency=a.concurrency)
        rid = generate(tasks, policy, v, store, cfg, concurrency=a.concurrency, task_set="tests/gpu/kernels gold",
                       on_turn=lambda ep, t: print(f"{ep.split('#')[0]:40s} turn {t.idx} {t.stage:9s} {t.verdict['status']:14s} "
                                                   f"guidance={','.join(t.guidance_ids)} llm={t.latency_s:.2f}s verify={t.verify_s:.1f}s", flush=True))
        episodes = []
        for e in store.episodes(rid):
            turns = store.turns(e.episode_id)
            episodes.append({"task": e.task_key, "status": e.status, "correct": e.correct, "best_turn": e.best_turn,
                             "best_speedup_eager": e.best_speedup, "wall_s": e.wall_s,
                             "turns": [{"idx": t.idx, "stage": t.stage, "status": t.verdict["status"],
                                        "error": (t.verdict.get("error") or {}).get("message"), "guidance_ids": t.guidance_ids,
                                        "candidate_ms": (t.verdict.get("timing") or {}).get("candidate_ms"),
                                        "verify_s": t.verify_s} for t in turns]})
        summary = store.summary(rid)
    Path(a.out).write_text(json.dumps({"run_id": rid, "wall_s": time.time() - t0, "summary": summary, "episodes": episodes}, indent=1, default=str))
    print(json.dumps(summary, default=str))


if __name__ == "__main__":
    main()
