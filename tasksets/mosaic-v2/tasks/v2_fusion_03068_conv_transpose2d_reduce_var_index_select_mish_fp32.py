import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float32


class Model(nn.Module):
    """Fusion chain (fp32).

    Ops: conv_transpose2d, reduce_var, index_select, mish
    """

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(3, 32, kernel_size=4, stride=2, padding=1)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.deconv(x)
        x = torch.var(x, dim=(2, 3))
        x = torch.index_select(x, 1, idx)
        x = F.mish(x)
        return x


batch_size = 8761


def get_inputs():
    return [torch.randn(batch_size, 3, 28, 28, dtype=dtype), torch.randint(0, 32, (16,), dtype=torch.long)]


def get_init_inputs():
    return []
