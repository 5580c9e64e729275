import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.float16


class Model(nn.Module):
    """Fusion chain (fp16).

    Ops: conv1d_grouped, reduce_mean_abs, sign_sqrt, masked_fill, gather, l2_normalize
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 256, kernel_size=5, stride=1, padding=2, groups=2)
        self.to(dtype)

    def forward(self, x, idx):
        x = self.conv(x)
        x = torch.mean(x.abs(), dim=(2,))
        x = torch.sign(x) * torch.sqrt(x.abs())
        x = x.masked_fill(x < -0.25, 0.0)
        x = torch.gather(x, 1, idx)
        x = F.normalize(x, p=2.0, dim=-1)
        return x


batch_size = 853


def get_inputs():
    return [torch.randn(batch_size, 16, 4096, dtype=dtype), torch.randint(0, 256, (batch_size, 256))]


def get_init_inputs():
    return []
