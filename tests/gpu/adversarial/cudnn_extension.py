"""Cheat (library compute, GPU): the candidate's own CUDA extension calls cuDNN's
`cudnnConvolutionForward` for the convolution (the handle bound to torch's current stream), and
a trivial kernel of its own scales the result by 1 so that one of its kernels runs. No torch op
computes, so the dispatch-mode watch (`torch_compute`) sees nothing. cuDNN resolves through
libtorch_cuda's own dependency on libcudnn (no `-lcudnn` needed).

Exploits: strict watching only aten ops. Before issue 15 this passed strict.
Expected: strict refuses the build: the library the judge built has undefined cuDNN symbols
(`rejected`, rule `library_compute`). kernelbench allows library compute: `correct` (the task's
integer values make cuDNN's sums exact, whatever algorithm it picks).
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cudnn.h>

#define CK(x) TORCH_CHECK((x) == CUDNN_STATUS_SUCCESS, #x " failed")

__global__ void scale_one(float* c, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) c[i] = c[i] * 1.0f;
}

torch::Tensor conv(torch::Tensor x, torch::Tensor w) {
    static cudnnHandle_t h = nullptr;
    if (!h) CK(cudnnCreate(&h));
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    CK(cudnnSetStream(h, stream));
    cudnnTensorDescriptor_t xd, yd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    CK(cudnnCreateTensorDescriptor(&xd));
    CK(cudnnCreateTensorDescriptor(&yd));
    CK(cudnnCreateFilterDescriptor(&wd));
    CK(cudnnCreateConvolutionDescriptor(&cd));
    CK(cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, x.size(0), x.size(1), x.size(2), x.size(3)));
    CK(cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, w.size(0), w.size(1), w.size(2), w.size(3)));
    CK(cudnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    int n, c, oh, ow;
    CK(cudnnGetConvolution2dForwardOutputDim(cd, xd, wd, &n, &c, &oh, &ow));
    auto y = torch::empty({n, c, oh, ow}, x.options());
    CK(cudnnSetTensor4dDescriptor(yd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, oh, ow));
    const cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    size_t ws = 0;
    CK(cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, algo, &ws));
    auto work = torch::empty({(long)ws + 1}, x.options().dtype(torch::kUInt8));
    const float one = 1.f, zero = 0.f;
    CK(cudnnConvolutionForward(h, &one, xd, x.data_ptr<float>(), wd, w.data_ptr<float>(), cd, algo,
                               work.data_ptr(), ws, &zero, yd, y.data_ptr<float>()));
    cudnnDestroyConvolutionDescriptor(cd);
    cudnnDestroyFilterDescriptor(wd);
    cudnnDestroyTensorDescriptor(yd);
    cudnnDestroyTensorDescriptor(xd);
    long total = y.numel();
    scale_one<<<(total + 255) / 256, 256, 0, stream>>>(y.data_ptr<float>(), total);
    return y;
}
"""
ext = load_inline(name="km_cudnn_cheat", cpp_sources="torch::Tensor conv(torch::Tensor x, torch::Tensor w);",
                  cuda_sources=cuda_src, functions=["conv"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(16, 4, 3, 3))  # the reference's values are copied in by name

    def forward(self, x):
        return ext.conv(x.contiguous(), self.weight.contiguous())
