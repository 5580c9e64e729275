"""3xTF32 vs the precision check on KernelBench L2/12 (Gemm_Multiply_LeakyReLU), emulated on the CPU.

Measures the normwise error ||out - oracle64||_F / ||oracle64||_F of the whole model (x @ W^T + b,
* 2.0, LeakyReLU(0.1); x = torch.rand(1024, 8192), nn.Linear(8192, 8192)) -- the quantity
kernelmosaic/verify/precision.py bounds by max(16 x the fp32 reference's error, floor) -- for:

  torch-fp32      torch's fp32 linear on this CPU (a blocked library sum)
  fp32-fma        sequential fp32 FMA over K (the agent's SIMT fallback), IEEE round-to-nearest
  3xtf32-ieee     the agent's split (hi = tf32_rna(x), lo = tf32_rna(x - hi); lo*hi, hi*lo, hi*hi
                  in that order), each m16n8k8 step's 8 products added to an fp32 sum with IEEE RN
  3xtf32-tc       the same, each mma step done as a Hopper tensor core does it (tc_step), all K
                  chained through one accumulator: the agent's kernel, and CUTLASS's FastF32 mainloop
  3xtf32-tc-tile  as 3xtf32-tc, but each 32-wide K tile accumulates from zero and is then added with
                  an IEEE RN fp32 add (the L2/40 kernel, judged correct; Triton's tf32x3 does the same)
  *-rz            the split with truncating cvt (hi and lo round toward zero)
  3xtf32-tc-cutlass  CUTLASS's FastF32 rounding: hi truncated, lo round-to-nearest
  tf32-*, bf16-ieee  plain one-term TF32 and bf16 operands

The tensor-core model (products exact, all 9 terms aligned to the largest and cut 2 bits below
fp32's ulp, the sum truncated toward zero to fp32) reproduced 99.97 % of 60000 single
mma.sync.m16n8k8 TF32 results on an H100 bit for bit (--probe makes them, --fit scores models).
The full output is too slow to emulate on a CPU, so a random subset of --rows rows and --cols
columns is used, every one over all K = 8192. Run:

    python benchmarks/tf32_emulation.py [--rows 32 --cols 1024 --seed 776109836 --only a,b]
    python benchmarks/tf32_emulation.py --probe out.npz     # on a GPU, needs CuPy
    python benchmarks/tf32_emulation.py --fit out.npz
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import torch

K, M, N, MULT, SLOPE = 8192, 1024, 8192, 2.0, 0.1
EPS32 = float(np.finfo(np.float32).eps)


def tf32(x: np.ndarray, mode: str) -> np.ndarray:
    """fp32 -> TF32 (10 explicit mantissa bits) on the bit pattern; sign-magnitude, so adding to
    the bits rounds the magnitude for either sign."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    if mode == "rna":      # cvt.rna.tf32.f32: nearest, ties away from zero
        u = u + 0x1000
    elif mode == "rne":    # nearest, ties to even
        u = u + 0xFFF + ((u >> 13) & 1)
    # "rz": truncation, mask only
    return (u & 0xFFFFE000).astype(np.uint32).view(np.float32)


def split(x: np.ndarray, mode: str):
    """mode "rna", "rz", or "big/small" (e.g. CUTLASS's "rz/rna")."""
    big, small = (mode.split("/") * 2)[:2]
    hi = tf32(x, big)
    lo = tf32((x - hi).astype(np.float32), small)  # x - hi is exact in fp32
    return hi.astype(np.float64), lo.astype(np.float64)


def rz32(s: np.ndarray) -> np.ndarray:
    """float64 -> fp32 value, rounded toward zero (normal range only, enough here)."""
    _, e = np.frexp(s)
    q = np.ldexp(1.0, e - 24)
    return np.trunc(s / q) * q


# kept bits below the largest term's leading bit, + 1 (26: fp32's 24 and 2 more), and products per
# fused sum: 26 and 8 are what the H100 does (--fit); --bits/--block try others
BITS, BLOCK = 26, 8


def tc_step(c: np.ndarray, p: np.ndarray) -> np.ndarray:
    """One mma.sync accumulate: c (R, C) fp32 values, p (R, C, 8) exact products. Aligned terms lose
    their bits below 2^(emax - BITS + 1) toward zero, and the sum is truncated to fp32. The last step
    is what matters: it always shrinks |acc|, so its error grows with the number of chained mmas
    (3 per 8 K here) instead of their square root."""
    for j in range(0, p.shape[-1], BLOCK):
        t = np.concatenate([c[..., None], p[..., j:j + BLOCK]], axis=-1)
        _, e = np.frexp(np.abs(t).max(axis=-1, keepdims=True))
        q = np.ldexp(1.0, e - BITS)
        c = rz32((np.trunc(t / q) * q).sum(axis=-1))
    return c


def rn_step(c: np.ndarray, p: np.ndarray) -> np.ndarray:
    return (c + p.sum(axis=-1)).astype(np.float32).astype(np.float64)


def gemm(a: np.ndarray, w: np.ndarray, *, mode: str | None, terms: int, tc: bool, tile: int = 0) -> np.ndarray:
    """a (R, K) fp32, w (C, K) fp32 -> fp32 sums (as float64), 8 K per mma step, the mma order of
    the agent's kernel (lo*hi, hi*lo, hi*hi into the same accumulator)."""
    if mode is None:   # bf16 operands
        ah = torch.from_numpy(a).bfloat16().double().numpy(); wh = torch.from_numpy(w).bfloat16().double().numpy()
        al = wl = np.zeros_like(ah)
    else:
        ah, al = split(a, mode)
        wh, wl = split(w, mode)
    pairs = [(al, wh), (ah, wl), (ah, wh)][-terms:]
    step = tc_step if tc else rn_step
    acc = np.zeros((a.shape[0], w.shape[0]))
    tmp = acc
    for k0 in range(0, a.shape[1], 8):
        if tile and k0 % tile == 0:
            tmp = np.zeros_like(acc)
        for x, y in pairs:
            p = x[:, None, k0:k0 + 8] * y[None, :, k0:k0 + 8]  # exact: 11 x 11 significant bits
            tmp = step(tmp, p)
        if tile and (k0 + 8) % tile == 0:
            acc = (acc + tmp).astype(np.float32).astype(np.float64)
    return acc if tile else tmp


def fma_gemm(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    acc = np.zeros((a.shape[0], w.shape[0]), np.float32)
    a64, w64 = a.astype(np.float64), w.astype(np.float64)
    for k in range(a.shape[1]):  # fmaf: the product exact, one rounding to fp32
        acc = (acc + a64[:, None, k] * w64[None, :, k]).astype(np.float32)
    return acc.astype(np.float64)


def epilogue(acc: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The kernel's fp32 epilogue: (acc + b) * mult, LeakyReLU."""
    t = (acc.astype(np.float32) + b) * np.float32(MULT)
    return np.where(t > 0, t, t * np.float32(SLOPE)).astype(np.float64)


_PROBE = r"""extern "C" __global__ void k(const float* A, const float* B, const float* C, float* D) {
  // one mma.sync.m16n8k8 TF32 per block: A 16x8 row-major, B 8x8 (k, n), C and D 16x8
  int p = blockIdx.x, l = threadIdx.x, g = l >> 2, t = l & 3;
  const float *a = A + p * 128, *b = B + p * 64, *c = C + p * 128; float* d = D + p * 128;
  unsigned a0 = __float_as_uint(a[g * 8 + t]), a1 = __float_as_uint(a[(g + 8) * 8 + t]);
  unsigned a2 = __float_as_uint(a[g * 8 + t + 4]), a3 = __float_as_uint(a[(g + 8) * 8 + t + 4]);
  unsigned b0 = __float_as_uint(b[t * 8 + g]), b1 = __float_as_uint(b[(t + 4) * 8 + g]);
  float d0 = c[g * 8 + 2 * t], d1 = c[g * 8 + 2 * t + 1], d2 = c[(g + 8) * 8 + 2 * t], d3 = c[(g + 8) * 8 + 2 * t + 1];
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3},{%4,%5,%6,%7},{%8,%9},{%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  d[g * 8 + 2 * t] = d0; d[g * 8 + 2 * t + 1] = d1; d[(g + 8) * 8 + 2 * t] = d2; d[(g + 8) * 8 + 2 * t + 1] = d3;
}"""


def probe(path: str, n: int = 60000) -> None:
    """On a GPU: n single mmas with operands like 3xTF32's at L2/12 (x hi/lo against w hi/lo, an
    accumulator ~0.3), row 0 of A against column 0 of B onto C[0, 0]; saves a, b, c and the GPU's d."""
    import cupy as cp

    f = cp.RawModule(code=_PROBE).get_function("k")
    r = np.random.default_rng(1)
    x, w = r.random((n, 8), np.float32), ((r.random((n, 8)) * 2 - 1) / math.sqrt(K)).astype(np.float32)
    (xh, xl), (wh, wl) = split(x, "rna"), split(w, "rna")
    kind = (np.arange(n) % 3)[:, None]
    a = np.where(kind == 0, xl, xh).astype(np.float32)
    b = np.where(kind == 1, wl, wh).astype(np.float32)
    c = (r.standard_normal(n) * 0.3).astype(np.float32)
    A, B, C = np.zeros((n, 16, 8), np.float32), np.zeros((n, 8, 8), np.float32), np.zeros((n, 16, 8), np.float32)
    A[:, 0], B[:, :, 0], C[:, 0, 0] = a, b, c
    A, B, C = map(cp.asarray, (A, B, C))
    D = cp.zeros_like(C)
    f((n,), (32,), (A, B, C, D))
    np.savez(path, a=a, b=b, c=c, d=cp.asnumpy(D)[:, 0, 0])


def fit(path: str) -> None:
    """Which (bits, block) reproduces the GPU's mma results (--probe) bit for bit."""
    global BITS, BLOCK
    z = np.load(path)
    a, b, c, d = (z[k].astype(np.float64) for k in "abcd")
    for BLOCK in (8, 4):
        for BITS in (21, 22, 23, 24, 25, 26, 27):
            m = tc_step(c, a * b)
            print(f"block {BLOCK} bits {BITS}: {np.mean(m == d):.4f} of {len(d)} equal to the GPU's")
    print(f"IEEE RN of the exact sum: {np.mean(rn_step(c, a * b) == d):.4f}")


def main() -> None:
    global BITS, BLOCK
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=16)
    ap.add_argument("--cols", type=int, default=512)
    ap.add_argument("--seed", type=int, default=776109836)  # the failing trial's input seed
    ap.add_argument("--only", default="", help="comma-separated scheme names")
    ap.add_argument("--bits", type=int, default=BITS)
    ap.add_argument("--block", type=int, default=BLOCK)
    ap.add_argument("--fit", help="an npz of GPU mma results to fit the tensor-core model to")
    ap.add_argument("--probe", help="run single mmas on this GPU and save them to this npz")
    a = ap.parse_args()
    if a.probe:
        return probe(a.probe)
    if a.fit:
        return fit(a.fit)
    BITS, BLOCK = a.bits, a.block
    torch.manual_seed(a.seed)
    lin = torch.nn.Linear(K, N)  # default init: U(-1/sqrt(K), 1/sqrt(K)) for weight and bias
    torch.manual_seed(a.seed)
    x = torch.rand(M, K)
    g = np.random.default_rng(a.seed)
    ri, ci = np.sort(g.choice(M, a.rows, replace=False)), np.sort(g.choice(N, a.cols, replace=False))
    xs = x[ri].numpy()
    ws, bs = lin.weight.detach()[ci].numpy(), lin.bias.detach()[ci].numpy()
    del lin, x
    # the oracle exactly as the verifier's: the reference module run in float64
    o = torch.nn.functional.leaky_relu(torch.nn.functional.linear(
        torch.from_numpy(xs).double(), torch.from_numpy(ws).double(), torch.from_numpy(bs).double()) * MULT, SLOPE).numpy()
    on = float(np.linalg.norm(o))
    ref32 = torch.nn.functional.leaky_relu(torch.nn.functional.linear(
        torch.from_numpy(xs), torch.from_numpy(ws), torch.from_numpy(bs)) * MULT, SLOPE).double().numpy()
    floor = EPS32 * (4 + math.sqrt(K))  # precision.py's floor, relative (its tiny term is ~0 here)
    print(f"subset {a.rows} rows x {a.cols} cols of {M} x {N}, K = {K}, seed {a.seed}; "
          f"floor {floor:.3g}; bound = max(16 x reference error, floor)")
    schemes = {
        "torch-fp32": lambda: ref32,
        "fp32-fma": lambda: epilogue(fma_gemm(xs, ws), bs),
        "3xtf32-ieee": lambda: epilogue(gemm(xs, ws, mode="rna", terms=3, tc=False), bs),
        "3xtf32-tc": lambda: epilogue(gemm(xs, ws, mode="rna", terms=3, tc=True), bs),
        "3xtf32-tc-tile": lambda: epilogue(gemm(xs, ws, mode="rna", terms=3, tc=True, tile=32), bs),
        "3xtf32-ieee-rz": lambda: epilogue(gemm(xs, ws, mode="rz", terms=3, tc=False), bs),
        "3xtf32-tc-rz": lambda: epilogue(gemm(xs, ws, mode="rz", terms=3, tc=True), bs),
        "3xtf32-tc-cutlass": lambda: epilogue(gemm(xs, ws, mode="rz/rna", terms=3, tc=True), bs),
        "tf32-tc": lambda: epilogue(gemm(xs, ws, mode="rna", terms=1, tc=True), bs),
        "tf32-tc-tile": lambda: epilogue(gemm(xs, ws, mode="rna", terms=1, tc=True, tile=32), bs),
        "tf32-ieee": lambda: epilogue(gemm(xs, ws, mode="rna", terms=1, tc=False), bs),
        "bf16-ieee": lambda: epilogue(gemm(xs, ws, mode=None, terms=1, tc=False), bs),
    }
    only = [s for s in a.only.split(",") if s]
    ref_err = float(np.linalg.norm(ref32 - o)) / on
    for name, fn in schemes.items():
        if only and name not in only:
            continue
        t0 = time.time()
        err = float(np.linalg.norm(fn() - o)) / on
        print(f"{name:16s} normwise {err:.3g}  ({err / ref_err:.3g}x torch-fp32 here, "
              f"{err / 1.62e-6:.3g}x the pilot's reference 1.62e-06; over the pilot's bound 2.59e-05: "
              f"{err > 2.59e-5})  [{time.time() - t0:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
