"""The elementwise gold kernels that drive the GPU bench (tests/gpu/kernels/elementwise.py): the
same expression as raw C, verified on the CPU against the real KernelBench reference on small,
wider-ranged inputs (negative values too, and a length that is not a multiple of 4)."""

import re
import sys

from conftest import ROOT
from kernelmosaic.task import Task
from kernelmosaic.verify import TimingConfig, Verifier, VerifyRequest, check_candidate

sys.path.insert(0, str(ROOT / "tests" / "gpu" / "kernels"))
import elementwise as EW  # noqa: E402


def small(source: str) -> str:
    """The problem with small shapes and inputs in [-4, 4) instead of [0, 1)."""
    s = re.sub(r"(?m)^batch_size = .*$", "batch_size = 8", source)
    s = re.sub(r"(?m)^dim = .*$", "dim = 1001", s)
    s = re.sub(r"(?m)^M = .*$", "M = 8", s)
    s = re.sub(r"(?m)^N = .*$", "N = 1003", s)
    assert s != source, "the problem's sizes were not found"
    return s.replace("torch.rand(", "8 * torch.rand(").replace("x = 8 * torch.rand(", "x = -4 + 8 * torch.rand(").replace(
        "A = 8 * torch.rand(", "A = -4 + 8 * torch.rand(")


def test_nvrtc_sources_pass_the_static_rules():
    for op in EW.OPS:
        src = EW.source(op, "nvrtc")
        rep = check_candidate(src, "nvrtc", "strict")
        assert not rep.invalid and not rep.rejections, (op.key, rep)
        assert op.fn in rep.kernel_names, (op.key, rep.kernel_names)
        compile(src, op.key, "exec")


def test_cpu_twins_are_correct(kernelbench_dir, cache_dir):
    reqs = []
    for op in EW.OPS:
        ref = small((kernelbench_dir / op.file).read_text())
        assert "-4 + 8 * torch.rand(" in ref, op.file
        level, name = op.file.split("/")
        task = Task(name=name.removesuffix(".py"), source=ref, level=int(level[5:]), origin="kernelbench")
        reqs.append(VerifyRequest(candidate=EW.source(op, "cpp"), task=task, backend="cpp", trials=3,
                                  timing=TimingConfig(enabled=False)))
    # trusted code of our own: one worker may take several (fresh processes cost seconds each)
    with Verifier(device="cpu", workers=2, jobs_per_worker=len(reqs), cache_dir=cache_dir, spares=0) as v:
        verdicts = v.verify_many(reqs)
    bad = {op.key: (v.status, (v.error or {}).get("message"), v.mismatch) for op, v in zip(EW.OPS, verdicts)
           if getattr(v, "status", None) != "correct"}
    assert not bad, bad


def test_gold_set_covers_twenty_problems():
    import json

    manifest = json.loads((ROOT / "tests" / "gpu" / "kernels" / "manifest.json").read_text())
    keys = {g["file"] for g in manifest["gold"]} | {op.file for op in EW.OPS}
    assert len(keys) >= 20
