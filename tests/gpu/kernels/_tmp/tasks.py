# TEMPORARY (deleted after the device run): my own restatement of the reference semantics and
# shapes of the chosen KernelBench problems, so the device run needs no copy of KernelBench.
HDR = "import torch\nimport torch.nn as nn\nimport math\n"
TASKS = {
"L1/19": HDR + '''
class Model(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        return torch.relu(x)
def get_inputs():
    return [torch.rand(4096, 393216)]
def get_init_inputs():
    return []
''',
"L1/88": HDR + '''
class Model(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
def get_inputs():
    return [torch.rand(8192, 8192)]
def get_init_inputs():
    return []
''',
"L1/24": HDR + '''
class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim
    def forward(self, x):
        return torch.log_softmax(x, dim=self.dim)
def get_inputs():
    return [torch.rand(4096, 393216)]
def get_init_inputs():
    return []
''',
"L1/47": HDR + '''
class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
    def forward(self, x):
        return torch.sum(x, dim=self.dim, keepdim=True)
def get_inputs():
    return [torch.rand(128, 4096, 4095)]
def get_init_inputs():
    return [1]
''',
"L1/36": HDR + '''
class Model(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
    def forward(self, x):
        rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + self.eps)
        return x / rms
def get_inputs():
    return [torch.rand(112, 64, 512, 512)]
def get_init_inputs():
    return [64]
''',
"L1/40": HDR + '''
class Model(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)
    def forward(self, x):
        return self.ln(x)
def get_inputs():
    return [torch.rand(16, 64, 256, 256)]
def get_init_inputs():
    return [(64, 256, 256)]
''',
"L1/1": HDR + '''
class Model(nn.Module):
    def __init__(self):
        super().__init__()
    def forward(self, A, B):
        return torch.matmul(A, B)
def get_inputs():
    return [torch.rand(4096, 4096), torch.rand(4096, 4096)]
def get_init_inputs():
    return []
''',
"L2/76": HDR + '''
class Model(nn.Module):
    def __init__(self, in_features, out_features, bias_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features, bias=False)
        self.bias = nn.Parameter(torch.randn(bias_shape))
    def forward(self, x):
        return torch.relu(self.gemm(x) + self.bias)
def get_inputs():
    return [torch.rand(1024, 8192)]
def get_init_inputs():
    return [8192, 8192, (8192,)]
''',
"L2/99": HDR + '''
class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
    def forward(self, x):
        x = self.linear(x)
        x = torch.nn.functional.gelu(x)
        return torch.nn.functional.softmax(x, dim=1)
def get_inputs():
    return [torch.rand(1024, 8192)]
def get_init_inputs():
    return [8192, 8192]
''',
"L2/56": HDR + '''
class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.linear = nn.Linear(input_size, hidden_size)
    def forward(self, x):
        x = torch.sigmoid(self.linear(x))
        return torch.sum(x, dim=1, keepdim=True)
def get_inputs():
    return [torch.rand(128, 32768)]
def get_init_inputs():
    return [32768, 32768]
''',
}
