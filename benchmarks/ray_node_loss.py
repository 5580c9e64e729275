"""A worker node dies in the middle of a Ray `generate`: is every episode still recorded once?

A real multi-node Ray cluster on one machine (``ray.cluster_utils.Cluster``: a head with no
CPUs and two worker nodes, each its own raylet and processes). Each worker node holds one
verification actor of 2 CPUs. After the first committed turn, node B is removed with
its raylet, its actor and whatever episode tasks ran there. Node A has no room for B's
actor, so Ray cannot restart it: the controller must notice, give up on it and re-queue
its episodes onto node A. On the CPU backends, with the scripted OpenAI-compatible server.

    python benchmarks/ray_node_loss.py --out results/ray_node_loss.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import agent_scripts as S  # noqa: E402

from kernelmosaic.agent import EpisodeConfig, OpenAILLM  # noqa: E402
from kernelmosaic.scale import generate  # noqa: E402
from kernelmosaic.agent.scripted_server import ScriptedServer  # noqa: E402
from kernelmosaic.data import Store  # noqa: E402
from kernelmosaic.task import load_task  # noqa: E402
from kernelmosaic.verify import TimingConfig  # noqa: E402

DATA = ROOT / "tests" / "data"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    ap.add_argument("--episodes", type=int, default=4)
    a = ap.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    from kernelmosaic.scale import RayExecutor

    t0 = time.monotonic()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    node_a = cluster.add_node(num_cpus=2)
    node_b = cluster.add_node(num_cpus=2)
    ray.init(address=cluster.address, log_to_driver=False)
    work = Path(tempfile.mkdtemp(prefix="kmosaic-node-loss-"))
    tdir = work / "tasks"
    tdir.mkdir()
    for i in range(a.episodes):
        (tdir / f"relu_{i}.py").write_text((DATA / "tasks" / "relu.py").read_text())
    tasks = [load_task(f) for f in sorted(tdir.glob("*.py"))]
    cfg = EpisodeConfig(backend="cpp", max_repair=3, max_optimize=1, timing=TimingConfig(enabled=True, n=5, warmup=1, compile=False))
    ex = RayExecutor(device="cpu", actors=2, cpus_per_actor=2, actor_timeout_s=15.0,
                     verifier_options={"cache_dir": str(work / "cache"), "jobs_per_worker": 8})
    placed = ex.actors()
    b_id = node_b.node_id
    event: dict = {}

    def on_turn(ep_id, turn):
        if not event:
            on_b = [e for e, i in ex.in_flight().items() if placed[i["actor"]]["node"] == b_id]
            event.update(at_s=round(time.monotonic() - t0, 1), episodes_on_b=on_b)
            cluster.remove_node(node_b, allow_graceful=False)

    with ScriptedServer({"*": S.by_conversation}, delay_s=0.5) as srv, Store(work / "run.db") as store:
        rid = generate(tasks, OpenAILLM("scripted-coder", base_url=srv.base_url), None, store, cfg,
                       concurrency=a.episodes, executor=ex, on_turn=on_turn, run_id="node-loss")
        eps = store.episodes(rid)
        result = {
            "nodes": {"a": node_a.node_id, "b": b_id},
            "actors_at_start": [{k: i.get(k) for k in ("index", "node", "pid")} for i in placed],
            "node_b_removed": event,
            "executor_stats": ex.stats,
            "episodes": [{"task": e.task_key, "status": e.status, "correct": e.correct, "n_turns": e.n_turns,
                          "statuses": [t.verdict["status"] for t in store.turns(e.episode_id)]} for e in eps],
            "episode_rows": len(eps), "turn_rows": sum(e.n_turns for e in eps),
            "integrity": store.integrity_check(),
        }
    want = ["compile_error", "incorrect", "correct", "correct"]
    result["ok"] = (len(eps) == a.episodes and all(e["status"] == "done" and e["statuses"] == want for e in result["episodes"])
                    and ex.stats["actors_replaced"] >= 1 and bool(event.get("episodes_on_b")))
    result["wall_s"] = round(time.monotonic() - t0, 1)
    ex.close()
    ray.shutdown()
    cluster.shutdown()
    text = json.dumps(result, indent=1, default=str)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
