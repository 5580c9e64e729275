import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose3d, reduce_sum, sort, scan_cumsum, gelu, gather
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(16, 32, kernel_size=3, stride=2, padding=1, output_padding=1)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.deconv(x)
        x = torch.sum(x, dim=(2, 3, 4))
        x = torch.sort(x, dim=0).values
        x = torch.cumsum(x, dim=1)
        x = F.gelu(x)
        x = torch.gather(x, 1, idx)
        return x


batch_size = 511


def get_inputs():
    return [torch.randn(batch_size, 16, 8, 32, 32, dtype=dtype), torch.randint(0, 32, (batch_size, 32))]


def get_init_inputs():
    return []
