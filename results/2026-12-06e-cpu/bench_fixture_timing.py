import time, sys, json
sys.path.insert(0, 'tests')
import test_bench_run as T
from pathlib import Path
import tempfile
from kernelmosaic.agent.scripted_server import ScriptedServer
d = Path(tempfile.mkdtemp())
class F:
    def mktemp(self, n):
        p = d / n; p.mkdir(); return p
kb = T.kb._fixture_function(F())
cache = d / "cache"
with ScriptedServer(T._scripts()) as srv:
    for args in (("--mode", "agent", "--turns", "2,1", "--warm-lanes", "2"), ("--mode", "agent", "--turns", "2,1"),
                 ("--mode", "single", "--samples", "2", "--baselines", "kernelbench")):
        t = time.time()
        r = T._bench(kb, d / f"{args[1]}.db", srv.base_url, cache, *args)
        print(args, round(time.time() - t, 1), r.returncode, flush=True)
        print(r.stdout[-1500:], flush=True)
