"""Single operators with their own inputs (losses, embeddings, RNN cells, q/k/v attention,
two-operand matmuls) and small architecture blocks (MLP, gated MLP, attention and transformer
blocks, ResNet/ConvNeXt/SE/inverted-residual blocks, LSTM/GRU stacks, MoE routing).

Each returns a :class:`~kernelmosaic.curate.generate.Built` whose cost is the sum of its eager
kernels, built with the same draws for any batch (see :mod:`kernelmosaic.curate.generate`).
"""

from __future__ import annotations

import math

from .catalog import Ctx, Op, T, _randn


def _built(name, category, inputs, ops: list[Op], c: Ctx, out: T, returns: str = "x", doc: str = ""):
    from .generate import Built, op_seconds

    names = [n for o in ops for n in (o.ops or [o.name])]
    return Built(name=name, category=category, ops=names, init=[ln for o in ops for ln in o.init],
                 fwd=[ln for o in ops for ln in o.fwd], inputs=inputs, out=out, flops=sum(o.flops for o in ops),
                 eager_bytes=sum(o.bytes for o in ops), est_s=sum(op_seconds(o, c.dtype) for o in ops),
                 doc=doc or name.replace("_", " "), returns=returns)


def _in(name: str, shape: tuple, expr: str | None = None) -> tuple[str, str, tuple]:
    return (name, expr or _randn(shape), shape)


def _mm(name, m, k, n, c: Ctx, init=None, fwd=None, extra_bytes=0.0) -> Op:
    return Op(name, "matmul", init or [], fwd or [], T((m, n), "2d"), 2 * m * k * n, (m * k + k * n + m * n) * c.es + extra_bytes, cost="mm")


def _ew(name, numel, c: Ctx, k=1, cat="elementwise", fwd=None) -> Op:
    return Op(name, cat, [], fwd or [], T((numel,), "vec"), 4 * numel, 2 * numel * c.es * k, kernels=k)


# -- single operators with their own inputs ------------------------------------------------------
def loss(c: Ctx, batch: int):
    kind = c.pick(["mse", "l1", "smooth_l1", "huber", "cross_entropy", "nll", "kl_div", "bce_logits", "cosine",
                   "hinge", "triplet", "margin_ranking", "soft_margin", "poisson_nll"])
    red = c.pick(["mean", "sum", "none"])
    d = c.pick([128, 512, 1000, 4096, 8192], [8, 16, 32])
    n = batch * c.pick([64, 256], [2, 4])
    shape = (n, d)
    pred = _in("predictions", shape, catalog_randn(shape))
    tgt = _in("targets", shape, catalog_randn(shape))
    line = {
        "mse": f"F.mse_loss(predictions, targets, reduction='{red}')",
        "l1": f"F.l1_loss(predictions, targets, reduction='{red}')",
        "smooth_l1": f"F.smooth_l1_loss(predictions, targets, beta={c.rnd(0.2, 2.0)}, reduction='{red}')",
        "huber": f"F.huber_loss(predictions, targets, delta={c.rnd(0.2, 2.0)}, reduction='{red}')",
        "kl_div": f"F.kl_div(torch.log_softmax(predictions, dim=-1), torch.softmax(targets, dim=-1), reduction='{'batchmean' if red == 'mean' else red}')",
        "bce_logits": f"F.binary_cross_entropy_with_logits(predictions, torch.sigmoid(targets), reduction='{red}')",
        "cosine": "1.0 - F.cosine_similarity(predictions, targets, dim=-1)",
        "hinge": "torch.clamp(1.0 - predictions * torch.sign(targets), min=0.0).mean(dim=-1)",
        "soft_margin": f"F.soft_margin_loss(predictions, torch.sign(targets), reduction='{red}')",
        "poisson_nll": f"F.poisson_nll_loss(predictions, targets.abs(), log_input=True, reduction='{red}')",
    }.get(kind)
    inputs = [pred, tgt]
    k = 3
    if kind in ("cross_entropy", "nll"):
        inputs = [pred, ("targets", f"torch.randint(0, {d}, (batch_size * {n // batch},))", (n,))]
        fn = "F.cross_entropy(predictions, targets" if kind == "cross_entropy" else "F.nll_loss(torch.log_softmax(predictions, dim=-1), targets"
        line = f"{fn}, reduction='{red}')"
    elif kind == "triplet":
        inputs = [pred, tgt, _in("negatives", shape)]
        line = f"F.triplet_margin_loss(predictions, targets, negatives, margin={c.rnd(0.5, 2.0)}, reduction='{red}')"
    elif kind == "margin_ranking":
        inputs = [pred, tgt, ("signs", f"torch.randint(0, 2, (batch_size * {n // batch}, {d})).to(dtype) * 2 - 1", shape)]
        line = f"F.margin_ranking_loss(predictions, targets, signs, margin={c.rnd(0.0, 1.0)}, reduction='{red}')"
    # the batch dimension of the inputs is batch * rows
    inputs = [(nm, e.replace("batch_size, ", f"batch_size * {n // batch}, ", 1) if e.startswith("torch.randn(batch_size,") else e, s)
              for nm, e, s in inputs]
    numel = n * d
    o = Op(f"loss_{kind}", "loss", [], [f"x = {line}"], T((n,), "vec"), 6 * numel, numel * c.es * (len(inputs) + k), kernels=k)
    out = T((1,), "vec") if red != "none" and kind not in ("cosine", "hinge") else T(shape, "2d")
    b = _built(f"loss_{kind}_{red}", "loss", inputs, [o], c, out, doc=f"{kind} loss, reduction={red}")
    return b


def catalog_randn(shape):
    return _randn(shape)


def embedding(c: Ctx, batch: int):
    vocab = c.pick([8192, 32000, 50257, 128000], [64, 100])
    d = c.pick([256, 512, 1024, 2048], [16, 32])
    tt = c.pick([128, 512, 2048], [8, 16])
    bag = c.rng.random() < 0.3
    ids = ("ids", f"torch.randint(0, {vocab}, (batch_size, {tt}))", (batch, tt))
    if bag:
        mode = c.pick(["sum", "mean", "max"])
        o = Op("embedding_bag", "indexing", [f"self.emb = nn.EmbeddingBag({vocab}, {d}, mode='{mode}')"], ["x = self.emb(ids)"],
               T((batch, d), "2d"), batch * tt * d, batch * tt * d * c.es * 2)
        return _built(f"embedding_bag_{mode}", "indexing", [ids], [o], c, o.out)
    o = Op("embedding", "indexing", [f"self.emb = nn.Embedding({vocab}, {d})"], ["x = self.emb(ids)"],
           T((batch, tt, d), "seq"), batch * tt * d, batch * tt * d * c.es * 2)
    return _built("embedding", "indexing", [ids], [o], c, o.out)


def index_add(c: Ctx, batch: int):
    rows, d = c.pick([4096, 16384], [16, 32]), c.pick([256, 1024], [8, 16])
    m = batch * c.pick([1024, 4096], [4, 8])
    src = ("src", f"torch.randn(batch_size * {m // batch}, {d}, dtype=dtype)", (m, d))
    idx = ("index", f"torch.randint(0, {rows}, (batch_size * {m // batch},))", (m,))
    base = ("x", f"torch.randn({rows}, {d}, dtype=dtype)", (rows, d))
    o = Op("index_add", "indexing", [], ["x = x.index_add(0, index, src)"], T((rows, d), "2d"), m * d,
           (m * d * 3 + rows * d * 2) * c.es, kernels=2)
    return _built("index_add", "indexing", [base, idx, src], [o], c, o.out)


def rnn_cell(c: Ctx, batch: int):
    kind = c.pick(["LSTMCell", "GRUCell", "RNNCell"])
    d, h = c.pick([256, 512, 1024, 2048], [8, 16]), c.pick([256, 512, 1024, 2048], [8, 16])
    n = batch * c.pick([32, 128], [2, 4])
    gates = {"LSTMCell": 4, "GRUCell": 3, "RNNCell": 1}[kind]
    inputs = [_in("x", (n, d), f"torch.randn(batch_size * {n // batch}, {d}, dtype=dtype)"),
              _in("h", (n, h), f"torch.randn(batch_size * {n // batch}, {h}, dtype=dtype)")]
    fwd = "x = self.cell(x, h)"
    if kind == "LSTMCell":
        inputs.append(_in("cx", (n, h), f"torch.randn(batch_size * {n // batch}, {h}, dtype=dtype)"))
        fwd = "x = self.cell(x, (h, cx))"
    o = Op(kind.lower(), "rnn", [f"self.cell = nn.{kind}({d}, {h})"], [fwd], T((n, h), "2d"),
           2 * n * (d + h) * h * gates, (n * (d + 2 * h) + (d + h) * h * gates) * c.es, cost="mm", kernels=6)
    return _built(kind.lower(), "rnn", inputs, [o], c, o.out)


def qkv_attention(c: Ctx, batch: int):
    heads = c.pick([4, 8, 16, 32], [2])
    hd = c.pick([32, 64, 128], [8, 16])
    tq = c.pick([256, 512, 1024, 2048, 4096], [8, 16])
    tk = tq if c.rng.random() < 0.7 else c.pick([256, 1024, 4096], [8, 24])
    causal = tq == tk and c.rng.random() < 0.5
    manual = c.rng.random() < 0.3
    shape_q, shape_k = (batch, heads, tq, hd), (batch, heads, tk, hd)
    inputs = [_in("q", shape_q), _in("k", shape_k), _in("v", shape_k)]
    if manual:
        fwd = [f"s = torch.matmul(q, k.transpose(-1, -2)) * {1 / math.sqrt(hd):.6g}"]
        if causal:
            fwd.append(f"s = s.masked_fill(torch.ones({tq}, {tk}, dtype=torch.bool, device=s.device).triu(1), float('-inf'))")
        fwd.append("x = torch.matmul(torch.softmax(s, dim=-1), v)")
        kern = 4 + causal
        byts = (batch * heads * tq * tk * 6 + 4 * batch * heads * tq * hd) * c.es
    else:
        fwd = [f"x = F.scaled_dot_product_attention(q, k, v, is_causal={causal})"]
        kern = 1
        byts = 4 * batch * heads * tq * hd * c.es
    flops = 4 * batch * heads * tq * tk * hd * (0.5 if causal else 1)
    o = Op("attention_manual" if manual else "sdpa", "attention", [], fwd, T(shape_q, "attn"), flops, byts,
           cost="mm" if manual else "attn", kernels=kern, ops=["matmul", "softmax", "matmul"] if manual else ["sdpa"])
    name = ("attention_manual" if manual else "sdpa") + ("_causal" if causal else "") + ("_cross" if tq != tk else "")
    return _built(name, "attention", inputs, [o], c, o.out)


def two_operand_matmul(c: Ctx, batch: int):
    kind = c.pick(["mm", "bmm", "baddbmm", "einsum_bhqd", "matmul_broadcast", "addmm", "tall_skinny", "matmul_4d"])
    m, k = c.pick([512, 1024, 2048, 4096], [8, 16, 32]), c.pick([256, 512, 1024, 2048, 4096], [8, 16, 32])
    n = c.pick([256, 512, 1024, 2048, 4096], [8, 16, 32])
    if kind in ("mm", "addmm", "tall_skinny"):
        if kind == "tall_skinny":
            k = c.pick([16, 32, 64], [4, 8])
        rows = batch * m
        a = ("A", f"torch.randn(batch_size * {m}, {k}, dtype=dtype)", (rows, k))
        b = ("B", f"torch.randn({k}, {n}, dtype=dtype)", (k, n))
        inputs = [a, b]
        fwd = ["x = torch.matmul(A, B)"]
        if kind == "addmm":
            inputs.append(("bias", f"torch.randn({n}, dtype=dtype)", (n,)))
            fwd = [f"x = torch.addmm(bias, A, B, beta={c.rnd(0.5, 1.5)}, alpha={c.rnd(0.5, 1.5)})"]
        o = _mm(kind, rows, k, n, c, fwd=fwd)
        return _built(kind, "matmul", inputs, [o], c, o.out)
    m, k, n = (x // 4 if not c.small else x for x in (m, k, n))
    if kind in ("bmm", "baddbmm"):
        inputs = [_in("A", (batch, m, k)), _in("B", (batch, k, n))]
        fwd = ["x = torch.bmm(A, B)"]
        if kind == "baddbmm":
            inputs.append(_in("C", (batch, m, n)))
            fwd = [f"x = torch.baddbmm(C, A, B, beta={c.rnd(0.2, 1.0)})"]
    elif kind == "einsum_bhqd":
        h = c.pick([4, 8], [2])
        inputs = [_in("A", (batch, h, m, k)), _in("B", (batch, h, n, k))]
        fwd = ["x = torch.einsum('bhmk,bhnk->bhmn', A, B)"]
        batch *= h
    elif kind == "matmul_4d":
        h = c.pick([2, 4], [2])
        inputs = [_in("A", (batch, h, m, k)), ("B", f"torch.randn({k}, {n}, dtype=dtype)", (k, n))]
        fwd = ["x = torch.matmul(A, B)"]
        batch *= h
    else:
        inputs = [_in("A", (batch, m, k)), ("B", f"torch.randn({k}, {n}, dtype=dtype)", (k, n))]
        fwd = ["x = torch.matmul(A, B)"]
    o = Op(kind, "matmul", [], fwd, T((batch, m, n), "seq"), 2 * batch * m * k * n, batch * (m * k + k * n + m * n) * c.es, cost="mm")
    return _built(kind, "matmul", inputs, [o], c, o.out)


def lstm_sequence_single(c: Ctx, batch: int):
    return rnn_stack(c, batch, layers=1)


SPECIAL = [loss, loss, embedding, index_add, rnn_cell, rnn_cell, qkv_attention, qkv_attention, two_operand_matmul,
           two_operand_matmul, lstm_sequence_single]


def special_single(c: Ctx, batch: int):
    return c.pick(SPECIAL)(c, batch)


# -- architecture blocks -----------------------------------------------------------------------------
def _act(c: Ctx) -> tuple[str, str]:
    return c.pick([("gelu", "F.gelu({})"), ("relu", "torch.relu({})"), ("silu", "F.silu({})"), ("gelu_tanh", "F.gelu({}, approximate='tanh')")])


def _seq_in(c: Ctx, batch: int, d_choices=None):
    tt = c.pick([128, 256, 512, 1024], [8, 16])
    d = c.pick(d_choices or [256, 512, 768, 1024, 2048], [16, 32])
    return tt, d, _in("x", (batch, tt, d))


def mlp(c: Ctx, batch: int, gated: bool = False):
    tt, d, x = _seq_in(c, batch)
    hidden = d * c.pick([2, 4]) if not gated else (d * 8 // 3 + 63) // 64 * 64 if not c.small else d * 2
    an, act = _act(c)
    rows = batch * tt
    norm = c.pick(["layer_norm", "rms_norm", "none"])
    ops = []
    init, fwd = [], ["h = x"]
    if norm == "layer_norm":
        init.append(f"self.norm = nn.LayerNorm({d})")
        fwd.append("h = self.norm(h)")
    elif norm == "rms_norm":
        init.append(f"self.norm_weight = nn.Parameter(torch.ones({d}))")
        fwd.append("h = h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.norm_weight")
    if norm != "none":
        ops.append(Op(norm, "normalization", [], [], T((rows, d), "2d"), 8 * rows * d, 2 * rows * d * c.es * (1 if norm == "layer_norm" else 4),
                      kernels=1 if norm == "layer_norm" else 5))
    if gated:
        init += [f"self.w_gate = nn.Linear({d}, {hidden}, bias=False)", f"self.w_up = nn.Linear({d}, {hidden}, bias=False)",
                 f"self.w_down = nn.Linear({hidden}, {d}, bias=False)"]
        fwd.append(f"h = self.w_down({act.format('self.w_gate(h)')} * self.w_up(h))")
        ops += [_mm("linear", rows, d, hidden, c), _mm("linear", rows, d, hidden, c), _ew(an, rows * hidden, c, 2),
                _mm("linear", rows, hidden, d, c)]
        names = ["linear", "linear", an, "mul", "linear"]
    else:
        init += [f"self.fc1 = nn.Linear({d}, {hidden})", f"self.fc2 = nn.Linear({hidden}, {d})"]
        fwd.append(f"h = self.fc2({act.format('self.fc1(h)')})")
        ops += [_mm("linear", rows, d, hidden, c), _ew(an, rows * hidden, c), _mm("linear", rows, hidden, d, c)]
        names = ["linear", an, "linear"]
    fwd.append("x = x + h")
    ops.append(_ew("add", rows * d, c, 1.5))
    o = ops[0]
    o.init, o.fwd = init, fwd
    ops[0].ops = ([norm] if norm != "none" else []) + names + ["add"]
    for extra in ops[1:]:
        extra.ops = [None]
    b = _built("gated_mlp" if gated else "mlp", "mlp_block", [x], ops, c, T((batch, tt, d), "seq"),
               doc=("gated MLP (SwiGLU-style)" if gated else "MLP") + f" block with {norm} and a residual")
    b.ops = [n for n in b.ops if n]
    return b


def attention_block(c: Ctx, batch: int, with_mlp: bool = False):
    tt, d, x = _seq_in(c, batch, [256, 512, 768, 1024])
    heads = c.pick([h for h in (4, 8, 16) if d % h == 0 and d // h >= 32] or [1], [2])
    causal = c.pick([True, False])
    rows = batch * tt
    init = [f"self.norm1 = nn.LayerNorm({d})", f"self.qkv = nn.Linear({d}, {3 * d})", f"self.proj = nn.Linear({d}, {d})"]
    fwd = ["b, t, d = x.shape", "h = self.norm1(x)",
           f"q, k, v = self.qkv(h).view(b, t, 3, {heads}, d // {heads}).permute(2, 0, 3, 1, 4)",
           f"h = F.scaled_dot_product_attention(q, k, v, is_causal={causal})",
           "x = x + self.proj(h.transpose(1, 2).reshape(b, t, d))"]
    ops = [Op("layer_norm", "normalization", [], [], T((rows, d), "2d"), 8 * rows * d, 2 * rows * d * c.es),
           _mm("linear", rows, d, 3 * d, c), Op("sdpa", "attention", [], [], T((rows, d), "2d"),
                                                4 * batch * tt * tt * d * (0.5 if causal else 1), 6 * rows * d * c.es, cost="attn", kernels=3),
           _mm("linear", rows, d, d, c), _ew("add", rows * d, c, 1.5)]
    names = ["layer_norm", "linear", "sdpa", "linear", "add"]
    if with_mlp:
        an, act = _act(c)
        init += [f"self.norm2 = nn.LayerNorm({d})", f"self.fc1 = nn.Linear({d}, {4 * d})", f"self.fc2 = nn.Linear({4 * d}, {d})"]
        fwd.append(f"x = x + self.fc2({act.format('self.fc1(self.norm2(x))')})")
        ops += [Op("layer_norm", "normalization", [], [], T((rows, d), "2d"), 8 * rows * d, 2 * rows * d * c.es),
                _mm("linear", rows, d, 4 * d, c), _ew(an, rows * 4 * d, c), _mm("linear", rows, 4 * d, d, c), _ew("add", rows * d, c, 1.5)]
        names += ["layer_norm", "linear", an, "linear", "add"]
    ops[0].init, ops[0].fwd = init, fwd
    ops[0].ops = names
    for o in ops[1:]:
        o.ops = [None]
    b = _built("transformer_block" if with_mlp else "attention_block", "attention_block", [x], ops, c,
               T((batch, tt, d), "seq"), doc=("pre-norm transformer block" if with_mlp else "pre-norm self-attention block")
               + (", causal" if causal else ""))
    b.ops = [n for n in b.ops if n]
    return b


def _conv_op(name, n, cin, cout, hw, k, c: Ctx, groups=1, stride=1) -> Op:
    ho = hw // stride
    return Op(name, "convolution", [], [], T((n, cout, ho, ho), "c2"), 2 * n * cout * ho * ho * (cin // groups) * k * k,
              (n * cin * hw * hw + n * cout * ho * ho) * c.es * (2 if groups > 1 else 1), cost="conv" if groups == 1 else "mem")


def _bn_relu(n, ch, hw, c: Ctx, act="relu") -> list[Op]:
    numel = n * ch * hw * hw
    return [Op("batch_norm", "normalization", [], [], T((numel,), "vec"), 6 * numel, 4 * numel * c.es, kernels=2),
            _ew(act, numel, c)]


def resnet_block(c: Ctx, batch: int):
    ch = c.pick([32, 64, 128, 256], [4, 8])
    hw = c.pick([14, 28, 56], [6, 8])
    bottleneck = c.rng.random() < 0.4
    x = _in("x", (batch, ch, hw, hw))
    if not bottleneck:
        init = [f"self.conv1 = nn.Conv2d({ch}, {ch}, 3, padding=1, bias=False)", f"self.bn1 = nn.BatchNorm2d({ch})",
                f"self.conv2 = nn.Conv2d({ch}, {ch}, 3, padding=1, bias=False)", f"self.bn2 = nn.BatchNorm2d({ch})"]
        fwd = ["h = torch.relu(self.bn1(self.conv1(x)))", "h = self.bn2(self.conv2(h))", "x = torch.relu(h + x)"]
        ops = [_conv_op("conv2d", batch, ch, ch, hw, 3, c), *_bn_relu(batch, ch, hw, c), _conv_op("conv2d", batch, ch, ch, hw, 3, c),
               *_bn_relu(batch, ch, hw, c)[:1], _ew("add", batch * ch * hw * hw, c, 2)]
        names = ["conv2d", "batch_norm", "relu", "conv2d", "batch_norm", "add", "relu"]
    else:
        mid = ch // 4 if ch >= 16 else ch
        init = [f"self.conv1 = nn.Conv2d({ch}, {mid}, 1, bias=False)", f"self.bn1 = nn.BatchNorm2d({mid})",
                f"self.conv2 = nn.Conv2d({mid}, {mid}, 3, padding=1, bias=False)", f"self.bn2 = nn.BatchNorm2d({mid})",
                f"self.conv3 = nn.Conv2d({mid}, {ch}, 1, bias=False)", f"self.bn3 = nn.BatchNorm2d({ch})"]
        fwd = ["h = torch.relu(self.bn1(self.conv1(x)))", "h = torch.relu(self.bn2(self.conv2(h)))", "h = self.bn3(self.conv3(h))",
               "x = torch.relu(h + x)"]
        ops = [_conv_op("conv2d", batch, ch, mid, hw, 1, c), *_bn_relu(batch, mid, hw, c), _conv_op("conv2d", batch, mid, mid, hw, 3, c),
               *_bn_relu(batch, mid, hw, c), _conv_op("conv2d", batch, mid, ch, hw, 1, c), *_bn_relu(batch, ch, hw, c)]
        names = ["conv2d", "batch_norm", "relu", "conv2d", "batch_norm", "relu", "conv2d", "batch_norm", "add", "relu"]
    return _block(ops, init, fwd, names, "resnet_bottleneck" if bottleneck else "resnet_basic", "conv_block", [x], c,
                  T((batch, ch, hw, hw), "c2"), "ResNet " + ("bottleneck" if bottleneck else "basic") + " block")


def _block(ops, init, fwd, names, name, category, inputs, c, out, doc, returns="x"):
    ops[0].init, ops[0].fwd, ops[0].ops = init, fwd, names
    for o in ops[1:]:
        o.ops = [None]
    b = _built(name, category, inputs, ops, c, out, doc=doc, returns=returns)
    b.ops = [n for n in b.ops if n]
    return b


def convnext_block(c: Ctx, batch: int):
    ch = c.pick([32, 64, 96, 128, 192], [4, 8])
    hw = c.pick([14, 28, 56], [6, 8])
    x = _in("x", (batch, ch, hw, hw))
    numel = batch * ch * hw * hw
    rows = batch * hw * hw
    init = [f"self.dwconv = nn.Conv2d({ch}, {ch}, 7, padding=3, groups={ch})", f"self.norm = nn.LayerNorm({ch}, eps=1e-6)",
            f"self.pw1 = nn.Linear({ch}, {4 * ch})", f"self.pw2 = nn.Linear({4 * ch}, {ch})",
            f"self.gamma = nn.Parameter(torch.full(({ch},), 0.1))"]
    fwd = ["h = self.dwconv(x).permute(0, 2, 3, 1)", "h = self.pw2(F.gelu(self.pw1(self.norm(h))))",
           "x = x + (self.gamma * h).permute(0, 3, 1, 2)"]
    ops = [_conv_op("conv2d_depthwise", batch, ch, ch, hw, 7, c, groups=ch),
           Op("layer_norm", "normalization", [], [], T((numel,), "vec"), 8 * numel, 4 * numel * c.es, kernels=2),
           _mm("linear", rows, ch, 4 * ch, c), _ew("gelu", numel * 4, c), _mm("linear", rows, 4 * ch, ch, c), _ew("mul", numel, c, 3)]
    names = ["conv2d_depthwise", "permute", "layer_norm", "linear", "gelu", "linear", "mul", "add"]
    return _block(ops, init, fwd, names, "convnext_block", "conv_block", [x], c, T((batch, ch, hw, hw), "c2"), "ConvNeXt block")


def se_block(c: Ctx, batch: int):
    ch = c.pick([64, 128, 256], [8, 16])
    hw = c.pick([14, 28, 56], [6, 8])
    r = c.pick([4, 8, 16]) if not c.small else 2
    x = _in("x", (batch, ch, hw, hw))
    numel = batch * ch * hw * hw
    init = [f"self.conv = nn.Conv2d({ch}, {ch}, 3, padding=1)", f"self.fc1 = nn.Linear({ch}, {ch // r})", f"self.fc2 = nn.Linear({ch // r}, {ch})"]
    fwd = ["h = torch.relu(self.conv(x))", "s = h.mean(dim=(2, 3))", "s = torch.sigmoid(self.fc2(torch.relu(self.fc1(s))))",
           "x = h * s[:, :, None, None] + x"]
    ops = [_conv_op("conv2d", batch, ch, ch, hw, 3, c), _ew("relu", numel, c), _ew("mean", numel, c, 0.5), _ew("mul", numel, c, 3)]
    names = ["conv2d", "relu", "reduce_mean", "linear", "relu", "linear", "sigmoid", "mul", "add"]
    return _block(ops, init, fwd, names, "squeeze_excite_block", "conv_block", [x], c, T((batch, ch, hw, hw), "c2"), "conv + squeeze-and-excitation block")


def inverted_residual(c: Ctx, batch: int):
    ch = c.pick([16, 24, 32, 64], [4, 8])
    hw = c.pick([28, 56, 112], [6, 8])
    e = c.pick([4, 6])
    x = _in("x", (batch, ch, hw, hw))
    mid = ch * e
    init = [f"self.expand = nn.Conv2d({ch}, {mid}, 1, bias=False)", f"self.bn1 = nn.BatchNorm2d({mid})",
            f"self.dw = nn.Conv2d({mid}, {mid}, 3, padding=1, groups={mid}, bias=False)", f"self.bn2 = nn.BatchNorm2d({mid})",
            f"self.project = nn.Conv2d({mid}, {ch}, 1, bias=False)", f"self.bn3 = nn.BatchNorm2d({ch})"]
    fwd = ["h = F.relu6(self.bn1(self.expand(x)))", "h = F.relu6(self.bn2(self.dw(h)))", "x = x + self.bn3(self.project(h))"]
    ops = [_conv_op("conv2d_pointwise", batch, ch, mid, hw, 1, c), *_bn_relu(batch, mid, hw, c, "relu6"),
           _conv_op("conv2d_depthwise", batch, mid, mid, hw, 3, c, groups=mid), *_bn_relu(batch, mid, hw, c, "relu6"),
           _conv_op("conv2d_pointwise", batch, mid, ch, hw, 1, c), *_bn_relu(batch, ch, hw, c)[:1], _ew("add", batch * ch * hw * hw, c, 1.5)]
    names = ["conv2d_pointwise", "batch_norm", "relu6", "conv2d_depthwise", "batch_norm", "relu6", "conv2d_pointwise", "batch_norm", "add"]
    return _block(ops, init, fwd, names, "inverted_residual_block", "conv_block", [x], c, T((batch, ch, hw, hw), "c2"),
                  "MobileNetV2 inverted-residual block")


def rnn_stack(c: Ctx, batch: int, layers: int | None = None):
    kind = c.pick(["LSTM", "GRU", "RNN"] if layers == 1 else ["LSTM", "GRU"])
    layers = layers or c.pick([2, 3])
    tt = c.pick([32, 64, 128], [4, 6])
    d, h = c.pick([128, 256, 512, 1024], [8, 16]), c.pick([128, 256, 512, 1024], [8, 16])
    bidir = layers == 1 and c.rng.random() < 0.3
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[kind]
    x = _in("x", (batch * 8, tt, d), f"torch.randn(batch_size * 8, {tt}, {d}, dtype=dtype)")
    n = batch * 8
    dirs = 2 if bidir else 1
    init = [f"self.rnn = nn.{kind}({d}, {h}, num_layers={layers}, batch_first=True" + (", bidirectional=True" if bidir else "") + ")"]
    fwd = ["x = self.rnn(x)[0]"]
    flops = 2 * n * tt * gates * h * (d + h + (layers - 1) * (h * dirs + h)) * dirs
    # eager cuDNN runs the recurrence step by step: a few small kernels per time step and layer
    o = Op(kind.lower(), "rnn", init, fwd, T((n, tt, h * dirs), "seq"), flops,
           n * tt * (d + h * dirs * layers * 4) * c.es, cost="serial", kernels=tt * layers * dirs * 2,
           ops=[kind.lower()] * layers)
    name = f"{kind.lower()}_{layers}layer" + ("_bidir" if bidir else "")
    return _built(name, "rnn_block" if layers > 1 else "rnn", [x], [o], c, o.out, doc=f"{layers}-layer {kind}" + (" (bidirectional)" if bidir else ""))


def moe(c: Ctx, batch: int):
    d = c.pick([256, 512, 1024], [16, 32])
    experts = c.pick([4, 8, 16], [4])
    k = c.pick([1, 2])
    hidden = d * 2
    tokens = batch * c.pick([512, 2048], [8, 16])
    an, act = _act(c)
    x = ("x", f"torch.randn(batch_size * {tokens // batch}, {d}, dtype=dtype)", (tokens, d))
    init = [f"self.router = nn.Linear({d}, {experts}, bias=False)",
            f"self.w1 = nn.Parameter(torch.randn({experts}, {d}, {hidden}) / {math.sqrt(d):.4g})",
            f"self.w2 = nn.Parameter(torch.randn({experts}, {hidden}, {d}) / {math.sqrt(hidden):.4g})"]
    fwd = ["probs = torch.softmax(self.router(x).float(), dim=-1)", f"weights, chosen = torch.topk(probs, {k}, dim=-1)",
           "weights = (weights / weights.sum(dim=-1, keepdim=True)).to(x.dtype)", "out = torch.zeros_like(x)",
           f"for e in range({experts}):",
           "    rows, slot = torch.where(chosen == e)",
           f"    h = {act.format('x[rows] @ self.w1[e]')} @ self.w2[e]",
           "    out = out.index_add(0, rows, h * weights[rows, slot, None])",
           "x = out"]
    routed = tokens * k
    ops = [_mm("linear", tokens, d, experts, c), _ew("softmax", tokens * experts, c, 3),
           _mm("linear", routed, d, hidden, c), _mm("linear", routed, hidden, d, c), _ew(an, routed * hidden, c),
           Op("index_add", "indexing", [], [], T((1,), "vec"), routed * d, routed * d * 4 * c.es, kernels=8 * experts)]
    names = ["linear", "softmax", "topk", "gather", "linear", an, "linear", "index_add"]
    return _block(ops, init, fwd, names, f"moe_top{k}_{experts}experts", "moe_block", [x], c, T((tokens, d), "2d"),
                  f"mixture-of-experts layer: top-{k} routing over {experts} experts")


def conv_stem(c: Ctx, batch: int):
    """conv -> norm -> act -> pool, the stem of most CNNs."""
    cin = c.pick([3, 4], [3])
    ch = c.pick([32, 64], [4, 8])
    hw = c.pick([112, 160, 224], [16, 24])
    x = _in("x", (batch, cin, hw, hw))
    init = [f"self.conv = nn.Conv2d({cin}, {ch}, 7, stride=2, padding=3, bias=False)", f"self.bn = nn.BatchNorm2d({ch})"]
    fwd = ["x = F.max_pool2d(torch.relu(self.bn(self.conv(x))), kernel_size=3, stride=2, padding=1)"]
    h2 = (hw + 1) // 2
    ops = [_conv_op("conv2d_strided", batch, cin, ch, hw, 7, c, stride=2), *_bn_relu(batch, ch, h2, c), _ew("max_pool2d", batch * ch * h2 * h2, c, 0.6)]
    names = ["conv2d_strided", "batch_norm", "relu", "max_pool2d"]
    return _block(ops, init, fwd, names, "conv_stem", "conv_block", [x], c, T((batch, ch, (h2 + 1) // 2, (h2 + 1) // 2), "c2"), "CNN stem")


BLOCKS = [lambda c, b: mlp(c, b), lambda c, b: mlp(c, b, gated=True), lambda c, b: attention_block(c, b),
          lambda c, b: attention_block(c, b, with_mlp=True), resnet_block, convnext_block, se_block, inverted_residual,
          rnn_stack, moe, conv_stem]


def block(c: Ctx, batch: int):
    return c.pick(BLOCKS)(c, batch)
