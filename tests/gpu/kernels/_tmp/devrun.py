# TEMPORARY device runner (deleted after use).
import importlib.util, json, os, sys, time, math
HERE = os.path.dirname(os.path.abspath(__file__))
KROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from tasks import TASKS


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def phase_a():
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = "cuda"
    g = torch.Generator(device=dev).manual_seed(0)
    def rn(*s, scale=1.0):
        return torch.randn(*s, device=dev, generator=g) * scale
    def cmp(tag, out, ref):
        ref = ref.double()
        o = out.double()
        err = (o - ref).abs().max().item()
        rel = ((o - ref).norm() / ref.norm().clamp_min(1e-30)).item()
        ok = torch.allclose(o, ref, atol=1e-4, rtol=1e-4) and rel < 1e-4 and out.shape == ref.shape and out.dtype == torch.float32
        print(f"{'PASS' if ok else 'FAIL'} {tag} shape={tuple(out.shape)} maxabs={err:.3g} relnorm={rel:.3g}", flush=True)
    G = lambda s: load(os.path.join(KROOT, "gold", s, "nvrtc.py"), "c_" + s)
    with torch.no_grad():
        m = G("L1_19_ReLU").ModelNew()
        for x in [rn(37, 1001), rn(4099)[1:], rn(3), rn(1, 4096 * 3 + 5)]:
            cmp("relu", m(x), torch.relu(x.double()))
        m = G("L1_88_MinGPTNewGelu").ModelNew()
        for x in [rn(37, 1001, scale=3), rn(4099)[1:]]:
            xd = x.double()
            cmp("newgelu", m(x), 0.5 * xd * (1 + torch.tanh(math.sqrt(2 / math.pi) * (xd + 0.044715 * xd ** 3))))
        m = G("L1_24_LogSoftmax").ModelNew()
        for x in [rn(5, 1003, scale=5), rn(3, 4096), rn(4 * 777 + 1)[1:].view(4, 777), rn(2, 1), rn(1, 100000, scale=20)]:
            cmp("logsoftmax", m(x), torch.log_softmax(x.double(), dim=1))
        M = G("L1_47_Sum_reduction_over_a_dimension").ModelNew
        for shp, d in [((3, 37, 45), 1), ((3, 37, 45), 0), ((3, 37, 45), 2), ((3, 37, 45), -1), ((5, 1003), 1), ((2, 9, 7, 3), 2)]:
            x = rn(*shp)
            cmp(f"sum dim={d}", M(d)(x), x.double().sum(dim=d, keepdim=True))
        M = G("L1_36_RMSNorm_").ModelNew
        for shp in [(3, 7, 5, 9), (2, 64, 33), (4, 3)]:
            x = rn(*shp)
            xd = x.double()
            cmp("rmsnorm", M(shp[1])(x), xd / torch.sqrt((xd ** 2).mean(dim=1, keepdim=True) + 1e-5))
        M = G("L1_40_LayerNorm").ModelNew
        for shp, ns in [((2, 3, 50000), (3, 50000)), ((5, 7), (7,)), ((3, 16384 * 2 + 17), (16384 * 2 + 17,))]:
            mm = M(ns).to(dev)
            mm.ln.weight.copy_(rn(*ns))
            mm.ln.bias.copy_(rn(*ns))
            x = rn(*shp, scale=2) + 3.0
            ref = torch.nn.functional.layer_norm(x.double(), ns, mm.ln.weight.double(), mm.ln.bias.double(), 1e-5)
            cmp("layernorm", mm(x), ref)
        m = G("L1_1_Square_matrix_multiplication_").ModelNew()
        for Mm, K, N in [(131, 77, 259), (1, 1, 1), (128, 128, 128), (200, 1030, 67), (257, 64, 129), (512, 2048, 384)]:
            A, B = rn(Mm, K), rn(K, N)
            cmp(f"matmul {Mm}x{K}x{N}", m(A, B), A.double() @ B.double())
        A = rn(4 * 300 + 1)[1:].view(30, 40); B = rn(40 * 50 + 1)[1:].view(40, 50)
        cmp("matmul misaligned", m(A, B), A.double() @ B.double())
        M = G("L2_76_Gemm_Add_ReLU").ModelNew
        for Mm, K, N in [(33, 129, 300), (128, 256, 128), (1, 5, 3)]:
            mm = M(K, N, (N,)).to(dev)
            x = rn(Mm, K)
            cmp(f"gemm_add_relu {Mm}x{K}x{N}", mm(x), torch.relu(x.double() @ mm.gemm.weight.double().T + mm.bias.double()))
        M = G("L2_99_Matmul_GELU_Softmax").ModelNew
        for Mm, K, N in [(7, 65, 1001), (130, 256, 384), (2, 3, 1)]:
            mm = M(K, N).to(dev)
            x = rn(Mm, K)
            h = torch.nn.functional.gelu(x.double() @ mm.linear.weight.double().T + mm.linear.bias.double())
            cmp(f"gemm_gelu_softmax {Mm}x{K}x{N}", mm(x), torch.softmax(h, dim=1))
        M = G("L2_56_Matmul_Sigmoid_Sum").ModelNew
        for Mm, K, N in [(130, 77, 300), (128, 512, 1024), (3, 4, 1)]:
            mm = M(K, N).to(dev)
            x = rn(Mm, K)
            h = torch.sigmoid(x.double() @ mm.linear.weight.double().T + mm.linear.bias.double())
            cmp(f"gemm_sigmoid_sum {Mm}x{K}x{N}", mm(x), h.sum(dim=1, keepdim=True))
        torch.cuda.synchronize()


def phase_b(which):
    from kernelmosaic.task import Task
    from kernelmosaic.verify import Verifier, VerifyRequest, TimingConfig
    man = json.load(open(os.path.join(KROOT, "manifest.json")))
    jobs = []
    for gd in man["gold"]:
        for be in ("nvrtc", "cuda"):
            jobs.append((gd["dir"] + "/" + be + ".py", gd["task"], be, "correct"))
    for b in man["bad"]:
        jobs.append((b["path"], b["task"], b["backend"], b["expect"]))
    jobs = [j for j in jobs if which == "all" or j[2] == which]
    timing = os.environ.get("TIMING") == "1"
    reqs = []
    for path, task, be, exp in jobs:
        t = Task(name=task.replace("/", "_"), source=TASKS[task])
        reqs.append(VerifyRequest(candidate=open(os.path.join(KROOT, path)).read(), task=t, backend=be,
                                  trials=3, seed=1234, timing=TimingConfig(enabled=timing, n=10, warmup=2, compile=False)))
    t0 = time.time()
    with Verifier(device="cuda", timeouts={"check": 75.0}) as v:
        res = v.verify_many(reqs)
    print(f"verify_many took {time.time() - t0:.1f} s")
    out = []
    for (path, task, be, exp), r in zip(jobs, res):
        d = r.to_dict() if hasattr(r, "to_dict") else (r.__dict__ if hasattr(r, "__dict__") else {"err": str(r)})
        st = d.get("status")
        print(f"{'OK  ' if st == exp else 'MISS'} {path} [{be}] expect={exp} got={st}", flush=True)
        if st != exp or st != "correct":
            e = d.get("error") or {}
            print("     ", str(e.get("message"))[:600].replace("\n", " | "))
        if st == "correct" and timing:
            print("      timing:", json.dumps({k: d.get(k) for k in ("timing", "speedup", "times") if d.get(k) is not None})[:600])
        out.append({"path": path, "backend": be, "expect": exp, "verdict": d})
    od = os.environ.get("OUT")
    if od:
        json.dump(out, open(os.path.join(od, f"verdicts_{which}.json"), "w"), indent=1, default=str)


if __name__ == "__main__":
    if sys.argv[1] == "a":
        phase_a()
    else:
        phase_b(sys.argv[2] if len(sys.argv) > 2 else "all")
