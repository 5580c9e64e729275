"""After the FSDP run: is final/ one whole model, loadable, with trained (changed) weights?"""
import json, sys
from pathlib import Path
import torch
from safetensors.torch import load_file

out = Path(sys.argv[1])
def tensors(d):
    t = {}
    for f in sorted(Path(d).glob("*.safetensors")):
        t.update(load_file(str(f)))
    return t
base, final = tensors(out / "base"), tensors(out / "final")
print("files final:", sorted(p.name for p in (out / "final").iterdir()))
print("tensors base/final:", len(base), len(final), "same names:", set(base) == set(final))
print("params final:", sum(v.numel() for v in final.values()), "dtype:", {str(v.dtype) for v in final.values()})
shape_ok = all(base[k].shape == final[k].shape for k in base if k in final)
changed = sum(not torch.equal(base[k], final[k]) for k in base if k in final)
finite = all(torch.isfinite(v.float()).all().item() for v in final.values())
print("shapes equal:", shape_ok, "tensors changed by training:", changed, "all finite:", finite)
from transformers import AutoModelForCausalLM, AutoTokenizer
m = AutoModelForCausalLM.from_pretrained(str(out / "final"), dtype=torch.bfloat16).cuda()
tok = AutoTokenizer.from_pretrained(str(out / "final"))
ids = tok("__global__ void", return_tensors="pt").input_ids.cuda()
g = m.generate(ids, max_new_tokens=8, do_sample=False)
print("generate ok:", g.shape)
print(json.dumps(json.loads((out / "train_summary.json").read_text()), indent=1))
