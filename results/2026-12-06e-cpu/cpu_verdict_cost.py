import time, sys, resource, tempfile
sys.path.insert(0, 'tests')
from conftest import read
from kernelmosaic.verify import Verifier, VerifyRequest, TimingConfig
from kernelmosaic.task import load_task
from conftest import DATA
task = load_task(DATA / "tasks" / "relu.py")
src = read("cpu/relu_cc_ok.py")
NO = TimingConfig(enabled=False)
with Verifier(device="cpu", workers=1, cache_dir=tempfile.mkdtemp()) as v:
    v.verify(VerifyRequest(candidate=src, task=task, backend="cpp", timing=NO))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN); s0 = resource.getrusage(resource.RUSAGE_SELF); t = time.time()
    for i in range(10):
        x = v.verify(VerifyRequest(candidate=src, task=task, backend="cpp", timing=NO))
    w = time.time() - t
    print(x.status, x.phases_s)
r1 = resource.getrusage(resource.RUSAGE_CHILDREN); s1 = resource.getrusage(resource.RUSAGE_SELF)
print("wall per verdict", w/10, "children cpu per verdict (incl. close)", (r1.ru_utime+r1.ru_stime-r0.ru_utime-r0.ru_stime)/10,
      "self", (s1.ru_utime+s1.ru_stime-s0.ru_utime-s0.ru_stime)/10)
