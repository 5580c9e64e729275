"""Packed (padding-free) rows through Qwen3.5's gated-delta-net layers
(kernelmosaic/train/linear_attention.py), on the CPU: tiny random-init qwen3_5_text and
qwen3_5_moe_text models, batches from TRL's padding-free collator. The CPU runs the wrappers'
torch path (a masked convolution, the delta rule per sequence); fla's varlen kernels are the CUDA
path (``pytest -m gpu``, and ``benchmarks/train_throughput.py --arch qwen3.5 --check``)."""

import inspect
import json
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("peft")
pytest.importorskip("transformers.models.qwen3_5.modeling_qwen3_5",
                    reason="this transformers has no Qwen3.5 (qwen3_5_text)")

from conftest import ROOT  # noqa: E402
from kernelmosaic.train import ConfigError, decide_packing  # noqa: E402
from kernelmosaic.train import linear_attention as LA  # noqa: E402
from kernelmosaic.train.tiny import build_random_model  # noqa: E402

LAYERS = ["linear_attention"] * 3 + ["full_attention"]
TINY35 = {"model_type": "qwen3_5_text", "vocab_size": 512, "hidden_size": 64, "intermediate_size": 128,
          "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
          "linear_key_head_dim": 16, "linear_value_head_dim": 16, "linear_num_key_heads": 2,
          "linear_num_value_heads": 4, "layer_types": LAYERS, "tie_word_embeddings": False}
TINY35_MOE = {**{k: v for k, v in TINY35.items() if k != "intermediate_size"}, "model_type": "qwen3_5_moe_text",
              "num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 32,
              "shared_expert_intermediate_size": 32}
# boundaries inside and at the 64-token chunks of the chunked delta rule, and 2- and 5-token
# sequences, shorter than the convolution's reach of 3 tokens back
LENGTHS = (37, 100, 5, 64, 2)
LEAK = 0.05  # packed_check's tolerance: a leak moves logits by 0.2-0.4 of the largest logit here


@pytest.fixture
def restore():
    """Every test leaves transformers' own functions in place, whatever it installed."""
    yield
    for mt in ("qwen3_5_text", "qwen3_5_moe_text"):
        if LA.supported(mt):
            LA.uninstall(mt)


def tiny(cfg: dict):
    model = build_random_model(cfg, dtype="float32", attn_implementation="sdpa", device="cpu")
    # slow decays: with the random init's fast ones, a state carried over a boundary would fade
    # within a few tokens and the check could miss it
    assert LA.slow_decay(model) == 3
    return model


@pytest.fixture(scope="module")
def model():
    return tiny(TINY35)


def modeling(model_type: str = "qwen3_5_text"):
    import importlib

    return importlib.import_module(LA.MODULES[model_type])


@pytest.mark.parametrize("cfg", [TINY35, TINY35_MOE], ids=["qwen3_5_text", "qwen3_5_moe_text"])
def test_packed_rows_equal_each_sequence_alone(cfg, restore):
    model = tiny(cfg)
    LA.install(cfg["model_type"])
    assert LA.installed(cfg["model_type"])
    res = LA.packed_check(model, LENGTHS)
    assert res["ok"], res
    # float32 on both sides, the same functions: only summation order differs
    assert res["logits_rel_diff"] < 1e-5 and res["grad_rel_diff"] < 1e-5, res


def test_without_the_patch_packed_rows_are_refused_or_leak(model, restore):
    """transformers alone on the CPU: 5.25 raises for packed input without causal_conv1d/fla,
    5.17 mixes the sequences silently. Either way the check must fail."""
    LA.uninstall("qwen3_5_text")
    res = LA.packed_check(model, LENGTHS)
    assert not res["ok"], res
    assert "error" in res or res["logits_rel_diff"] > LEAK, res


def _leaky_conv(hidden_states, weight, bias=None, activation=None, **kwargs):
    """transformers 5.17's convolution without causal_conv1d: F.conv1d over the whole packed row."""
    return LA.segment_causal_conv1d(hidden_states, weight, bias, activation)


def _leaky_delta_rule(original):
    """transformers 5.17's delta rule without fla: the torch reference, cu_seqlens dropped."""
    reference = inspect.unwrap(original)

    def leaky(query, key, value, g, beta, cu_seqlens=None, **kwargs):
        keep = ("initial_state", "output_final_state", "use_qk_l2norm_in_kernel", "chunk_size")
        return reference(query, key, value, g=g, beta=beta, **{k: v for k, v in kwargs.items() if k in keep})

    return leaky


@pytest.mark.parametrize("leak", ["conv", "delta_rule"])
def test_the_check_sees_either_leak_alone(model, restore, leak):
    """One of the two functions put back to a boundary-blind version, the other ours: the check
    fails on the sequences after the first, and the first (nothing precedes it) still matches."""
    LA.install("qwen3_5_text")
    mod = modeling()
    if leak == "conv":
        setattr(mod, LA.CONV, _leaky_conv)
    else:
        setattr(mod, LA.DELTA, _leaky_delta_rule(LA._originals[mod.__name__][LA.DELTA]))
    res = LA.packed_check(model, LENGTHS)
    assert not res["ok"] and res["logits_rel_diff"] > LEAK, res
    by_seq = res["logits_rel_diff_by_sequence"]
    assert by_seq[0] < 1e-5 and max(by_seq[1:]) > LEAK, res


def test_segment_conv_equals_the_convolution_of_each_sequence():
    import torch.nn.functional as F
    from transformers.activations import ACT2FN

    gen = torch.Generator().manual_seed(0)
    lengths = [5, 1, 14, 3, 2]
    x = torch.randn(1, 6, sum(lengths), generator=gen)
    w, b = torch.randn(6, 4, generator=gen), torch.randn(6, generator=gen)
    cu = torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()], dtype=torch.int32)

    def conv(seg):  # transformers' causal_conv1d_fn on one sequence
        return ACT2FN["silu"](F.conv1d(seg, w[:, None], b, padding=3, groups=6)[..., : seg.shape[-1]])

    ref = torch.cat([conv(x[..., a:e]) for a, e in zip(cu[:-1].tolist(), cu[1:].tolist())], -1)
    torch.testing.assert_close(LA.segment_causal_conv1d(x, w, b, "silu", cu), ref, rtol=1e-5, atol=1e-6)
    # without boundaries it is the plain convolution of the row
    torch.testing.assert_close(LA.segment_causal_conv1d(x, w, b, "silu"), conv(x), rtol=1e-5, atol=1e-6)
    assert LA.sequence_ids(cu, int(cu[-1])).tolist() == [i for i, n in enumerate(lengths) for _ in range(n)]


def test_padded_batches_and_single_rows_go_to_transformers_unchanged(model, restore):
    gen = torch.Generator().manual_seed(1)
    ids = torch.randint(3, 512, (2, 40), generator=gen)
    mask = torch.ones_like(ids)
    mask[1, 25:] = 0  # right padding
    LA.uninstall("qwen3_5_text")
    with torch.no_grad():
        ref = model(input_ids=ids, attention_mask=mask, use_cache=False).logits
        ref_row = model(input_ids=ids[:1], use_cache=False).logits
    LA.install("qwen3_5_text")
    with torch.no_grad():
        assert torch.equal(model(input_ids=ids, attention_mask=mask, use_cache=False).logits, ref)
        assert torch.equal(model(input_ids=ids[:1], use_cache=False).logits, ref_row)


def test_decide_packing_follows_fla(monkeypatch, restore):
    from transformers import AutoConfig

    qwen35 = AutoConfig.for_model("qwen3_5_text", num_hidden_layers=4)
    qwen3 = AutoConfig.for_model("qwen3", num_hidden_layers=2)
    # without fla: padded batches for auto, an error for packing: true, nothing installed
    monkeypatch.setattr(LA, "fla_ops", lambda: None)
    packing, why = decide_packing("auto", qwen35)
    assert packing is False and "flash-linear-attention does not import" in why
    with pytest.raises(ConfigError, match="leak"):
        decide_packing(True, qwen35)
    assert decide_packing(False, qwen35)[0] is False
    assert decide_packing("auto", qwen3)[0] is True  # no linear attention: packing as before
    assert not LA.installed("qwen3_5_text", LA.CONV) and not LA.installed("qwen3_5_text", LA.DELTA)

    # with fla (stood in for: the CPU would not run its kernels anyway): packing, and the
    # wrappers are in place before any model is built
    monkeypatch.setattr(LA, "fla_ops", lambda: (object(), object()))
    packing, why = decide_packing("auto", qwen35)
    assert packing is True and "fla's varlen kernels" in why
    assert LA.installed("qwen3_5_text")
    assert decide_packing(True, qwen35) == (True, "packing (set in the config)")
    # the hub checkpoint's vision-language config: its text tower is what gets patched
    LA.uninstall("qwen3_5_text")
    assert decide_packing("auto", AutoConfig.for_model("qwen3_5"))[0] is True and LA.installed("qwen3_5_text")

    # a linear-attention model without a packed path here (Qwen3-Next): padded, even with fla
    nxt = AutoConfig.for_model("qwen3_next", num_hidden_layers=4)
    assert "linear_attention" in nxt.layer_types
    packing, why = decide_packing("auto", nxt)
    assert packing is False and "no packed path for model_type 'qwen3_next'" in why
    with pytest.raises(ConfigError, match="leak"):
        decide_packing(True, nxt)


def test_fla_refusal_of_hopper_stops_training_before_it_starts(monkeypatch, restore):
    """fla 0.6 raises in the delta rule's backward on Hopper with 3.4 <= Triton < 3.7.1 (its
    issue #640), padded rows too. fla_refusal reads fla's own flags (stood in for by a module:
    this machine has neither fla nor Hopper), decide_packing turns it into a config error, and
    unguard_fla lifts it for the benchmark's measurement."""
    import types

    from transformers import AutoConfig

    guard = types.ModuleType(LA.FLA_GUARD_MODULE)
    guard.IS_NVIDIA_HOPPER, guard.TRITON_ABOVE_3_4_0, guard.TRITON_ABOVE_3_7_1 = True, True, False
    monkeypatch.setitem(sys.modules, LA.FLA_GUARD_MODULE, guard)
    monkeypatch.setattr(LA, "fla_ops", lambda: (object(), object()))
    real_find_spec = LA.importlib.util.find_spec
    monkeypatch.setattr(LA.importlib.util, "find_spec",
                        lambda name, *a: None if name == "tilelang" else real_find_spec(name, *a))
    qwen35 = AutoConfig.for_model("qwen3_5_text", num_hidden_layers=4)
    assert "#640" in (LA.fla_refusal() or "")
    for requested in ("auto", True, False):
        with pytest.raises(ConfigError, match="Triton >= 3.7.1 or tilelang"):
            decide_packing(requested, qwen35)
    assert decide_packing("auto", AutoConfig.for_model("qwen3", num_hidden_layers=2))[0] is True  # no fla in it

    # Triton 3.7.1, or another GPU: nothing refused
    guard.TRITON_ABOVE_3_7_1 = True
    assert LA.fla_refusal() is None and decide_packing("auto", qwen35)[0] is True
    guard.TRITON_ABOVE_3_7_1, guard.IS_NVIDIA_HOPPER = False, False
    assert LA.fla_refusal() is None
    # lifting it, as --fla-unguarded does
    guard.IS_NVIDIA_HOPPER = True
    assert LA.unguard_fla() is True and guard.TRITON_ABOVE_3_7_1 is True and LA.fla_refusal() is None
    assert LA.unguard_fla() is False


def test_throughput_benchmark_qwen35_tiny(tmp_path):
    """The benchmark's Qwen3.5 path end to end on the CPU: the check, then a packed run (the
    torch path: there is no fla here), and the summary with both (about 40 s; the padded mode
    is plain transformers and is left out for time)."""
    out = tmp_path / "tp"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "train_throughput.py"), "--arch", "qwen3.5", "--tiny",
           "--check", "--modes", "tuned", "--time-limit-s", "400", "--out", str(out)]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    check = json.loads((out / "check.json").read_text())
    assert check["packed_path"]["ok"], check["packed_path"]
    assert not check["transformers_as_is"]["ok"]
    tuned = json.loads((out / "tuned_1gpu.json").read_text())
    assert tuned["settings"]["packing"] is True and tuned["settings"]["padding_free"] is True
    assert tuned["settings"]["linear_attention_packed_path"].startswith("torch")
    assert tuned["tokens_per_s"] > 0 and tuned["measured_steps"] >= 1
    assert tuned["model"]["attention_layers"] == 1 and tuned["model"]["arch"].startswith("Qwen3_5ForCausalLM")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["check"]["packed_path"]["ok"] and not summary["check"]["transformers_as_is"]["ok"]
    assert "check packed_path: ok" in (out / "summary.md").read_text()
    assert "not_run" not in summary


@pytest.mark.gpu
def test_fla_varlen_path_equals_each_sequence_alone_on_cuda(restore):
    """fla's varlen convolution and delta rule (bf16) against each sequence alone, at the
    Qwen3.5-9B head shapes; also what transformers does alone with the same packed row."""
    if LA.fla_ops() is None:
        pytest.skip("flash-linear-attention does not import")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from train_throughput import linear_attention_check

    res = linear_attention_check()
    assert res["packed_path"]["ok"], res["packed_path"]
    assert res["varlen_attention"]["ok"], res["varlen_attention"]
