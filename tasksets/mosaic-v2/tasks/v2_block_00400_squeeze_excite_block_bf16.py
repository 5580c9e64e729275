import torch
import torch.nn as nn
import torch.nn.functional as F

dtype = torch.bfloat16


class Model(nn.Module):
    """Conv + squeeze-and-excitation block (bf16).

    Ops: conv2d, relu, reduce_mean, linear, relu, linear, sigmoid, mul, add
    """

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(128, 128, 3, padding=1)
        self.fc1 = nn.Linear(128, 32)
        self.fc2 = nn.Linear(32, 128)
        self.to(dtype)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        s = h.mean(dim=(2, 3))
        s = torch.sigmoid(self.fc2(torch.relu(self.fc1(s))))
        x = h * s[:, :, None, None] + x
        return x


batch_size = 390


def get_inputs():
    return [torch.randn(batch_size, 128, 56, 56, dtype=dtype)]


def get_init_inputs():
    return []
