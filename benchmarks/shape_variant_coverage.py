"""How many KernelBench problems get a shape variant, and whether their references accept it.

For every problem of the chosen levels it lists the sites that kernelmosaic/verify/variants.py
varies (module constants, tuple elements, tuple-unpacked names, literals in get_inputs) and,
with --baseline-rev, how many problems the variants of that git revision reached. With --meta it
then runs each reference on meta tensors (shapes only: no data, no compute, so the largest L3
model costs milliseconds) on the task's shape and on each variant mode, with the judge's own
search (variants.choose_variant) and output check (variants.output_problem, less finiteness,
which meta tensors cannot show). A problem whose reference does not run on meta tensors on its
own shape is reported as unchecked, not as valid.

    KERNELBENCH_DIR=../shared/kernelbench python benchmarks/shape_variant_coverage.py \\
        --levels 1,2,3 --baseline-rev main --meta --json results/shape_variants.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import types
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernelmosaic.verify.variants import JUDGE_MODES, choose_variant, output_problem, size_sites  # noqa: E402


def baseline_variants(rev: str):
    """shape_variant_source of git revision ``rev``: the judge's variants before this change."""
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:kernelmosaic/verify/variants.py"],
                         capture_output=True, text=True, check=True).stdout
    mod = types.ModuleType("variants_before")
    exec(compile(src, f"{rev}:variants.py", "exec"), mod.__dict__)
    return mod.shape_variant_source


def site_kind(label: str, source: str) -> str:
    if label.startswith("get_inputs@"):
        return "literal"
    if "[" in label:
        return "tuple"
    name = label
    for line in source.splitlines():
        head = line.split("=")[0]
        if "," in head and name in [h.strip() for h in head.split(",")] and not line.startswith((" ", "\t")):
            return "unpack"
    return "constant"


class Timeout(Exception):
    pass


def _alarm(*_):
    raise Timeout()


def load(source: str, tag: str):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    try:
        spec = importlib.util.spec_from_file_location(tag, f.name)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        os.unlink(f.name)


def flat(x):
    import torch

    if isinstance(x, (list, tuple)):
        return [y for e in x for y in flat(e)]
    return [x] if isinstance(x, torch.Tensor) or x is not None else []


def meta_check(source: str, sites) -> dict:
    """Each mode's variant as the judge would choose it, with the reference run on meta tensors."""
    import torch

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(60)
    try:
        with torch.device("meta"):
            mod = load(source, "ref")
            torch.manual_seed(0)
            model = mod.Model(*mod.get_init_inputs())
            with torch.no_grad():
                orig = flat(model(*mod.get_inputs()))
    except Timeout:
        return {"unchecked": "timed out on its own shape"}
    except Exception as e:  # noqa: BLE001
        return {"unchecked": f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"}
    finally:
        signal.alarm(0)

    def valid(src):
        signal.alarm(60)
        try:
            with torch.device("meta"), torch.no_grad():
                out = flat(model(*load(src, "variant").get_inputs()))
        finally:
            signal.alarm(0)
        problem = output_problem(orig, out)
        if problem:
            raise ValueError(problem)
        return None

    res = {}
    for mode in JUDGE_MODES:
        chosen, refused = choose_variant(source, mode, valid, sites)
        res[mode] = {"applied": chosen is not None, "changed": chosen.changed if chosen else {},
                     "refused": refused, "all_sites": chosen is not None and not refused}
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernelbench", default=os.environ.get("KERNELBENCH_DIR", str(ROOT.parent / "shared" / "kernelbench")))
    ap.add_argument("--levels", default="1,2,3")
    ap.add_argument("--baseline-rev", default=None, help="git revision whose variants.py to compare with (e.g. main)")
    ap.add_argument("--meta", action="store_true", help="run the references on meta tensors to validate the variants")
    ap.add_argument("--json", default=None, help="write the per-problem rows here")
    a = ap.parse_args()
    kb = Path(a.kernelbench)
    if not kb.is_dir():
        sys.exit(f"no KernelBench at {kb} (set KERNELBENCH_DIR)")
    before = baseline_variants(a.baseline_rev) if a.baseline_rev else None
    rows = []
    for level in [int(x) for x in a.levels.split(",")]:
        for path in sorted((kb / f"level{level}").glob("*.py"), key=lambda p: int(p.name.split("_")[0])):
            source = path.read_text()
            sites = size_sites(source)
            row = {"level": level, "file": path.name,
                   "sites": {s.label: s.value for s in sites},
                   "kinds": sorted({site_kind(s.label, source) for s in sites})}
            if before is not None:
                row["before"] = [m for m in ("grow", "halve") if before(source, m) is not None]
                row["before_changed"] = {m: before(source, m)[1] for m in row["before"]}
            if a.meta and sites:
                row["meta"] = meta_check(source, sites)
            rows.append(row)
            print(f"L{level} {path.name}: {len(sites)} sites {row['kinds']}"
                  + (f"; meta: {json.dumps({k: (v['changed'] if isinstance(v, dict) else v) for k, v in row['meta'].items()})[:300]}"
                     if "meta" in row else ""), flush=True)
    print()
    for level in sorted({r["level"] for r in rows}):
        rs = [r for r in rows if r["level"] == level]
        kinds = Counter(k for r in rs for k in r["kinds"])
        line = f"L{level}: {len(rs)} problems; with a site to vary: {sum(1 for r in rs if r['sites'])}"
        if before is not None:
            line += f" (before: {sum(1 for r in rs if r['before'])})"
            only_other = sum(1 for r in rs if any(k in r["kinds"] for k in ("tuple", "unpack", "literal")))
            line += f"; sized by a tuple, an unpacked name or a literal: {only_other}"
            newly = [r for r in rs if set(r["sites"]) - {k for ch in r["before_changed"].values() for k in ch}]
            line += (f"; with a size varied now and never before: {len(newly)} "
                     f"(sites varied: {sum(len(r['sites']) for r in rs)}, before: "
                     f"{sum(len({k for ch in r['before_changed'].values() for k in ch}) for r in rs)})")
        line += f"; site kinds {dict(kinds)}"
        print(line)
        if a.meta:
            checked = [r for r in rs if "meta" in r and "unchecked" not in r["meta"]]
            unchecked = [r for r in rs if "meta" in r and "unchecked" in r["meta"]]
            for mode in JUDGE_MODES:
                app = sum(1 for r in checked if r["meta"][mode]["applied"])
                full = sum(1 for r in checked if r["meta"][mode]["all_sites"])
                print(f"   {mode}: the meta reference accepts a variant on {app}/{len(checked)} checked problems "
                      f"({full} with every site changed); {len(unchecked)} not checkable on meta tensors")
            odd = sum(1 for r in checked if r["meta"]["prime"]["applied"])
            print(f"   problems checked on an odd prime size in at least one site: {odd}")
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
