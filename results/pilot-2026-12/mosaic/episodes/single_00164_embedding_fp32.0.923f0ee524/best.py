import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

// One block per looked-up row; float4 copy when D % 4 == 0 and pointers are aligned.
template <typename IdT>
__global__ void emb_vec4(const IdT* __restrict__ ids, const float4* __restrict__ w,
                         float4* __restrict__ out, long n_ids, long D4) {
    long r = blockIdx.x;
    if (r >= n_ids) return;
    long id = (long)ids[r];
    const float4* src = w + id * D4;
    float4* dst = out + r * D4;
    long c = threadIdx.x;
    const long step = blockDim.x;
    for (; c + 3 * step < D4; c += 4 * step) {
        float4 a0 = __ldg(src + c);
        float4 a1 = __ldg(src + c + step);
        float4 a2 = __ldg(src + c + 2 * step);
        float4 a3 = __ldg(src + c + 3 * step);
        __stcs(dst + c, a0);
        __stcs(dst + c + step, a1);
        __stcs(dst + c + 2 * step, a2);
        __stcs(dst + c + 3 * step, a3);
    }
    for (; c < D4; c += step) __stcs(dst + c, __ldg(src + c));
}

template <typename IdT>
__global__ void emb_scalar(const IdT* __restrict__ ids, const float* __restrict__ w,
                           float* __restrict__ out, long n_ids, long D) {
    long r = blockIdx.x;
    if (r >= n_ids) return;
    long id = (long)ids[r];
    const float* src = w + id * D;
    float* dst = out + r * D;
    for (long c = threadIdx.x; c < D; c += blockDim.x) dst[c] = __ldg(src + c);
}

template <typename IdT>
void launch(const IdT* ids, const float* w, float* out, long n_ids, long D, cudaStream_t stream) {
    bool aligned = ((reinterpret_cast<uintptr_t>(w) | reinterpret_cast<uintptr_t>(out)) & 15) == 0;
    if (D % 4 == 0 && aligned) {
        long D4 = D / 4;
        int threads = D4 >= 512 ? 128 : (D4 >= 128 ? 64 : 32);
        emb_vec4<IdT><<<(unsigned)n_ids, threads, 0, stream>>>(
            ids, reinterpret_cast<const float4*>(w), reinterpret_cast<float4*>(out), n_ids, D4);
    } else {
        int threads = D >= 512 ? 128 : 32;
        emb_scalar<IdT><<<(unsigned)n_ids, threads, 0, stream>>>(ids, w, out, n_ids, D);
    }
}

torch::Tensor embedding_fwd(torch::Tensor ids, torch::Tensor weight) {
    TORCH_CHECK(ids.is_cuda() && weight.is_cuda(), "inputs must be CUDA");
    TORCH_CHECK(weight.scalar_type() == torch::kFloat32, "weight must be float32");
    TORCH_CHECK(ids.is_contiguous() && weight.is_contiguous(), "inputs must be contiguous");
    long D = weight.size(1);
    long n_ids = ids.numel();
    auto sizes = ids.sizes().vec();
    sizes.push_back(D);
    auto out = torch::empty(sizes, weight.options());
    if (n_ids == 0 || D == 0) return out;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (ids.scalar_type() == torch::kInt64) {
        launch<int64_t>(ids.data_ptr<int64_t>(), weight.data_ptr<float>(), out.data_ptr<float>(), n_ids, D, stream);
    } else {
        TORCH_CHECK(ids.scalar_type() == torch::kInt32, "ids must be int64 or int32");
        launch<int32_t>(ids.data_ptr<int32_t>(), weight.data_ptr<float>(), out.data_ptr<float>(), n_ids, D, stream);
    }
    return out;
}
"""

ext = load_inline(
    name="embedding_ext_v1",
    cpp_sources="torch::Tensor embedding_fwd(torch::Tensor ids, torch::Tensor weight);",
    cuda_sources=cuda_src,
    functions=["embedding_fwd"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50257, 2048)
        self.to(torch.float32)

    def forward(self, ids):
        return ext.embedding_fwd(ids.contiguous(), self.emb.weight.contiguous())
