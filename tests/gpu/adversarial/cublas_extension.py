"""Cheat (library compute, GPU): the candidate's own CUDA extension calls cuBLAS's
`cublasSgemm_v2` for the matrix product (the handle bound to torch's current stream), and a
trivial kernel of its own scales the result by 1 so that one of its kernels runs. No torch op
computes, so the dispatch-mode watch (`torch_compute`) sees nothing. cuBLAS resolves through
libtorch_cuda's own dependency on libcublas (no `-lcublas` needed).

Exploits: strict watching only aten ops. Before issue 15 this passed strict.
Expected: strict refuses the build: the library the judge built has undefined cuBLAS symbols
(`rejected`, rule `library_compute`); the profiler would also show cuBLAS's kernels by exact
name. kernelbench allows library compute: `correct`.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>

__global__ void scale_one(float* c, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) c[i] = c[i] * 1.0f;
}

static cublasHandle_t handle() {
    static cublasHandle_t h = nullptr;
    if (!h) TORCH_CHECK(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
    return h;
}

torch::Tensor matmul(torch::Tensor A, torch::Tensor B) {
    const int m = A.size(0), k = A.size(1), n = B.size(1);
    auto C = torch::empty({m, n}, A.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    cublasHandle_t h = handle();
    TORCH_CHECK(cublasSetStream(h, stream) == CUBLAS_STATUS_SUCCESS, "cublasSetStream failed");
    const float one = 1.f, zero = 0.f;
    // row-major C = A B is column-major C^T = B^T A^T
    TORCH_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B.data_ptr<float>(), n, A.data_ptr<float>(), k,
                            &zero, C.data_ptr<float>(), n) == CUBLAS_STATUS_SUCCESS, "cublasSgemm failed");
    long total = (long)m * n;
    scale_one<<<(total + 255) / 256, 256, 0, stream>>>(C.data_ptr<float>(), total);
    return C;
}
"""
ext = load_inline(name="km_cublas_cheat", cpp_sources="torch::Tensor matmul(torch::Tensor A, torch::Tensor B);",
                  cuda_sources=cuda_src, functions=["matmul"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return ext.matmul(A.contiguous(), B.contiguous())
