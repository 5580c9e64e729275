import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <stdint.h>

// ---------------------------------------------------------------------------------------------
// Direct path (few ids per vocabulary row): one block per looked-up id, float4 copy.
// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
// Dedup path (many ids per vocabulary row): counting sort of the positions by id, then each
// vocabulary row is read from HBM about once and written to every position that looks it up.
// ---------------------------------------------------------------------------------------------
__global__ void zero_int(int* __restrict__ p, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) p[i] = 0;
}

template <typename IdT>
__global__ void count_ids(const IdT* __restrict__ ids, int* __restrict__ counts, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(counts + (long)ids[i], 1);
}

// Single block of 1024 threads. Exclusive scan of counts[0..V) into offsets[0..V], and the
// same exclusive offsets copied into counts (used as scatter cursors afterwards).
#define SCAN_ITEMS 16
__global__ void __launch_bounds__(1024) scan_counts(int* __restrict__ counts, int* __restrict__ offsets, long V) {
    __shared__ int wsum[32];
    __shared__ int tile_total;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int carry = 0;
    for (long base = 0; base < V; base += 1024L * SCAN_ITEMS) {
        const long start = base + (long)tid * SCAN_ITEMS;
        int vals[SCAN_ITEMS];
        int tsum = 0;
#pragma unroll
        for (int k = 0; k < SCAN_ITEMS; ++k) {
            long i = start + k;
            vals[k] = (i < V) ? counts[i] : 0;
            tsum += vals[k];
        }
        int incl = tsum;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            int t = __shfl_up_sync(0xffffffffu, incl, o);
            if (lane >= o) incl += t;
        }
        if (lane == 31) wsum[warp] = incl;
        __syncthreads();
        if (warp == 0) {
            int w = wsum[lane];
            int wi = w;
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                int t = __shfl_up_sync(0xffffffffu, wi, o);
                if (lane >= o) wi += t;
            }
            wsum[lane] = wi - w;
            if (lane == 31) tile_total = wi;
        }
        __syncthreads();
        int run = carry + wsum[warp] + (incl - tsum);
#pragma unroll
        for (int k = 0; k < SCAN_ITEMS; ++k) {
            long i = start + k;
            if (i < V) { offsets[i] = run; counts[i] = run; }
            run += vals[k];
        }
        carry += tile_total;
        __syncthreads();
    }
    if (tid == 0) offsets[V] = carry;
}

template <typename IdT>
__global__ void scatter_positions(const IdT* __restrict__ ids, int* __restrict__ cursor,
                                  int* __restrict__ perm, int* __restrict__ sorted_ids, long n) {
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const long id = (long)ids[i];
        int pos = atomicAdd(cursor + id, 1);
        perm[pos] = (int)i;
        sorted_ids[pos] = (int)id;
    }
}

// Block b copies the sorted positions [b*P, min(n, (b+1)*P)), P = ceil(n / gridDim.x): the same
// amount of output per block whatever the id distribution. Consecutive sorted positions share
// their id, so a row chunk is loaded into registers only when the id changes and is then stored
// to every position that looks it up (each vocabulary row is read about once per block it spans).
#define CP_ITEMS 4
__global__ void __launch_bounds__(128) emb_sorted_copy(const float4* __restrict__ w, float4* __restrict__ out,
                                                      const int* __restrict__ sorted_ids, const int* __restrict__ perm,
                                                      long n, long P, long D4) {
    const long j0 = (long)blockIdx.x * P;
    const long j1 = (j0 + P < n) ? (j0 + P) : n;
    const long step = blockDim.x;
    for (long base = 0; base < D4; base += step * CP_ITEMS) {
        float4 a[CP_ITEMS];
        int prev = -1;
        for (long j = j0; j < j1; ++j) {
            const int v = sorted_ids[j];
            const long r = perm[j];
            if (v != prev) {   // block-uniform branch
                const float4* src = w + (long)v * D4;
#pragma unroll
                for (int k = 0; k < CP_ITEMS; ++k) {
                    long c = base + threadIdx.x + k * step;
                    if (c < D4) a[k] = __ldg(src + c);
                }
                prev = v;
            }
            float4* dst = out + r * D4;
#pragma unroll
            for (int k = 0; k < CP_ITEMS; ++k) {
                long c = base + threadIdx.x + k * step;
                if (c < D4) __stcs(dst + c, a[k]);
            }
        }
    }
}

template <typename IdT>
void launch(const IdT* ids, const float* w, float* out, long n_ids, long V, long D, torch::Tensor weight,
            cudaStream_t stream) {
    bool aligned = ((reinterpret_cast<uintptr_t>(w) | reinterpret_cast<uintptr_t>(out)) & 15) == 0;
    if (D % 4 == 0 && aligned) {
        long D4 = D / 4;
        int threads = D4 >= 512 ? 128 : (D4 >= 128 ? 64 : 32);
        if (n_ids >= 2 * V && n_ids < 2147483647L && V < 2147483647L) {
            auto iopt = weight.options().dtype(torch::kInt32);
            auto counts = torch::empty({V}, iopt);
            auto offsets = torch::empty({V + 1}, iopt);
            auto perm = torch::empty({n_ids}, iopt);
            auto sorted_ids = torch::empty({n_ids}, iopt);
            int* cp = counts.data_ptr<int>();
            int* op = offsets.data_ptr<int>();
            int* pp = perm.data_ptr<int>();
            int* sp = sorted_ids.data_ptr<int>();
            int sms = at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
            long gz = (V + 255) / 256; if (gz > (long)sms * 8) gz = (long)sms * 8;
            zero_int<<<(unsigned)gz, 256, 0, stream>>>(cp, V);
            long gn = (n_ids + 255) / 256; if (gn > (long)sms * 8) gn = (long)sms * 8;
            count_ids<IdT><<<(unsigned)gn, 256, 0, stream>>>(ids, cp, n_ids);
            scan_counts<<<1, 1024, 0, stream>>>(cp, op, V);
            scatter_positions<IdT><<<(unsigned)gn, 256, 0, stream>>>(ids, cp, pp, sp, n_ids);
            int per_sm = 0;   // exactly one wave of resident blocks, each with the same share of positions
            C10_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, emb_sorted_copy, threads, 0));
            if (per_sm < 1) per_sm = 1;
            long gc = (long)sms * per_sm;
            if (gc > n_ids) gc = n_ids;
            const long P = (n_ids + gc - 1) / gc;
            gc = (n_ids + P - 1) / P;
            emb_sorted_copy<<<(unsigned)gc, threads, 0, stream>>>(
                reinterpret_cast<const float4*>(w), reinterpret_cast<float4*>(out), sp, pp, n_ids, P, D4);
        } else {
            emb_vec4<IdT><<<(unsigned)n_ids, threads, 0, stream>>>(
                ids, reinterpret_cast<const float4*>(w), reinterpret_cast<float4*>(out), n_ids, D4);
        }
    } else {
        int threads = D >= 512 ? 128 : 32;
        emb_scalar<IdT><<<(unsigned)n_ids, threads, 0, stream>>>(ids, w, out, n_ids, D);
    }
}

torch::Tensor embedding_fwd(torch::Tensor ids, torch::Tensor weight) {
    TORCH_CHECK(ids.is_cuda() && weight.is_cuda(), "inputs must be CUDA");
    TORCH_CHECK(weight.scalar_type() == torch::kFloat32, "weight must be float32");
    TORCH_CHECK(ids.is_contiguous() && weight.is_contiguous(), "inputs must be contiguous");
    long V = weight.size(0);
    long D = weight.size(1);
    long n_ids = ids.numel();
    auto sizes = ids.sizes().vec();
    sizes.push_back(D);
    auto out = torch::empty(sizes, weight.options());
    if (n_ids == 0 || D == 0) return out;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (ids.scalar_type() == torch::kInt64) {
        launch<int64_t>(ids.data_ptr<int64_t>(), weight.data_ptr<float>(), out.data_ptr<float>(), n_ids, V, D, weight, stream);
    } else {
        TORCH_CHECK(ids.scalar_type() == torch::kInt32, "ids must be int64 or int32");
        launch<int32_t>(ids.data_ptr<int32_t>(), weight.data_ptr<float>(), out.data_ptr<float>(), n_ids, V, D, weight, stream);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

ext = load_inline(
    name="embedding_ext_v3_sorted",
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
