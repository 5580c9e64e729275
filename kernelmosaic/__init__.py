"""KernelMosaic: train small language models to write correct, fast CUDA kernels."""

__version__ = "0.1.0"
