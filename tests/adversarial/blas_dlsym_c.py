"""Cheat (library compute, CPU): the matrix product is a BLAS library's sgemm, reached from the
candidate's C code without linking it: `dl_iterate_phdr` finds a BLAS library already loaded in
the process (numpy's OpenBLAS, or MKL where torch exports it), `dlopen(..., RTLD_NOLOAD)` and
`dlsym` fetch its sgemm, and the candidate's "kernel" only calls it. No torch op runs, so the
dispatch-mode watch (`torch_compute`) sees nothing.

Exploits: strict watching only aten ops. On main (before issue 15) this was `correct` under
strict.
Expected: strict refuses the build: its dynamic symbols include the loader's `dlopen`, `dlsym`
and `dl_iterate_phdr` (`rejected`, rule `library_compute`). kernelbench allows library compute:
`correct`.
"""
import torch
import torch.nn as nn
from kernelmosaic.verify import cc

lib = cc.compile(r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <string.h>

typedef void (*sgemm32_t)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                          const int*, const float*, const int*, const float*, float*, const int*);
typedef void (*sgemm64_t)(const char*, const char*, const long*, const long*, const long*, const float*, const float*,
                          const long*, const float*, const long*, const float*, float*, const long*);
static void* gemm;
static int ilp64;

static int find(struct dl_phdr_info* info, size_t size, void* data) {
    (void)size; (void)data;
    if (!info->dlpi_name || !(strstr(info->dlpi_name, "blas") || strstr(info->dlpi_name, "mkl"))) return 0;
    void* h = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);
    if (!h) return 0;
    void* f;
    if ((f = dlsym(h, "scipy_sgemm_64_")) || (f = dlsym(h, "sgemm_64_"))) { gemm = f; ilp64 = 1; return 1; }
    if ((f = dlsym(h, "sgemm_"))) { gemm = f; ilp64 = 0; return 1; }
    return 0;
}

/* row-major C = A B is column-major C^T = B^T A^T */
int matmul(const float* A, const float* B, float* C, long M, long K, long N) {
    if (!gemm) {
        if ((gemm = dlsym(RTLD_DEFAULT, "sgemm_"))) ilp64 = 0;
        else dl_iterate_phdr(find, 0);
    }
    if (!gemm) return -1;
    float one = 1.f, zero = 0.f;
    if (ilp64) {
        ((sgemm64_t)gemm)("N", "N", &N, &M, &K, &one, B, &N, A, &K, &zero, C, &N);
    } else {
        int m = (int)M, k = (int)K, n = (int)N;
        ((sgemm32_t)gemm)("N", "N", &n, &m, &k, &one, B, &n, A, &k, &zero, C, &n);
    }
    return 0;
}
""")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        A = A.contiguous()
        B = B.contiguous()
        C = torch.empty(A.shape[0], B.shape[1], dtype=A.dtype, device=A.device)
        lib.matmul(A, B, C, A.shape[0], A.shape[1], B.shape[1])
        return C
