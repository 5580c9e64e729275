# Made with current main's code (cwd /tmp, no PYTHONPATH): a store and an export it wrote.
import math, sys, kernelmosaic
from kernelmosaic.data import Store, TurnRecord
from kernelmosaic.data.export import export
print(kernelmosaic.__file__)
out = sys.argv[1]
src = "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n"
def v(status, ms=None, sp=None, cv=None):
    t = None if ms is None else {"candidate_ms": ms, "eager_ms": 1.0, "compile_ms": None, "speedup_eager": sp,
                                 "speedup_compile": float("nan"), "cv": cv, "n": 5}
    return {"status": status, "backend": "cpp", "policy": "strict", "task": "double", "device": "cpu",
            "correct": status == "correct", "compiled": status != "compile_error", "seeds": [1], "tolerances": {},
            "error": None if status == "correct" else {"kind": status, "message": "boom", "log": ""},
            "mismatch": None, "rejections": [], "timing": t, "phases_s": {"total": 1.0}, "env": {}, "notes": []}
with Store(f"{out}/main-v1.db") as st:
    rid = st.start_run(model="scripted", settings={"samples": 1}, task_set="legacy", run_id="legacy")
    st.add_task("double", "0" * 64, src, level=1)
    st.add_task("triple", "1" * 64, src.replace("2", "3"), level=1)
    ep, _ = st.begin_episode(rid, "double", 0)
    turns = [("implement", "compile_error", None, None, None, None),
             ("repair", "correct", "A", 0.5, 2.0, float("nan")),
             ("optimize", "correct", "B", float("inf"), None, None)]
    for i, (stage, status, code, ms, sp, cv) in enumerate(turns):
        st.add_turn(TurnRecord(episode_id=ep.episode_id, idx=i, stage=stage,
                               messages=[{"role": "system", "content": "s"}, {"role": "user", "content": "u"}],
                               reply=f"```python\n{code}\n```", code=code and f"# {code}\n" + src.replace("Model", "ModelNew"),
                               verdict=v(status, ms, sp, cv), feedback="fb", usage={"total_tokens": 10},
                               latency_s=0.1, verify_s=0.2, created_at=1.0 + i))
    st.finish_episode(ep.episode_id, "done", best_turn=1, best_code="# A", best_speedup=2.0, correct=True, wall_s=1.0)
    ep2, _ = st.begin_episode(rid, "triple", 0)
    st.add_turn(TurnRecord(episode_id=ep2.episode_id, idx=0, stage="implement", messages=[{"role": "user", "content": "u"}],
                           reply="no code", code=None, verdict=v("invalid_candidate"), created_at=5.0))
print(export(f"{out}/main-v1.db", "iterative", f"{out}/main-v1-export").counts)
