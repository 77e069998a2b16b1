"""The PyTorch fixture of Train it yourself's transformer: tests/fixtures/train_pytorch.json.

An independent implementation, in PyTorch (float64, autograd, torch.optim.AdamW), of the model
of crates/train/src/model.rs with each of the six encodings and both masks: same weights, same
batch. For each case it writes the weights, the batch, the loss, every parameter's gradient,
and the losses and weights of 20 AdamW steps on that batch. tests/train.rs loads the weights
and the batch into the Rust model and compares.

    python3 -m venv /tmp/torchenv && /tmp/torchenv/bin/pip install torch
    /tmp/torchenv/bin/python scripts/train_fixture.py

Generated with torch 2.15.0 (CPU) in float64.
"""

import json
import math
import os

import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)

D, HEADS, LAYERS, HIDDEN, VOCAB = 8, 2, 2, 16, 8
TRAIN_LEN, TEST_LEN = 6, 12
BUCKETS, MAX_DISTANCE, BASE = 32, 128, 10000.0
BLOCK = ["ln1_g", "ln1_b", "wq", "wk", "wv", "wo", "ln2_g", "ln2_b", "w1", "b1", "w2", "b2"]


def names():
    out = ["tok", "pos", "t5"]
    for l in range(LAYERS):
        out += [f"blocks.{l}.{n}" for n in BLOCK]
    return out + ["lnf_g", "lnf_b", "out_w", "out_b"]


def shapes(enc):
    s = {"tok": (VOCAB, D), "pos": (TRAIN_LEN, D) if enc == "learned" else (0,),
         "t5": (HEADS, BUCKETS) if enc == "t5" else (0,),
         "lnf_g": (D,), "lnf_b": (D,), "out_w": (D, VOCAB), "out_b": (VOCAB,)}
    for l in range(LAYERS):
        b = f"blocks.{l}."
        s.update({b + "ln1_g": (D,), b + "ln1_b": (D,), b + "wq": (D, D), b + "wk": (D, D),
                  b + "wv": (D, D), b + "wo": (D, D), b + "ln2_g": (D,), b + "ln2_b": (D,),
                  b + "w1": (D, HIDDEN), b + "b1": (HIDDEN,), b + "w2": (HIDDEN, D), b + "b2": (D,)})
    return s


def alibi_slopes(n):
    closest = 2 ** int(math.floor(math.log2(n)))
    geo = lambda m: [(2 ** (-8.0 / m)) ** k for k in range(1, m + 1)]
    s = geo(closest)
    if closest < n:
        s += geo(2 * closest)[0::2][: n - closest]
    return s


def t5_bucket(rel, bidirectional):
    """transformers' T5Attention._relative_position_bucket (log ratio in float32)."""
    buckets, result = BUCKETS, 0
    if bidirectional:
        buckets //= 2
        if rel > 0:
            result += buckets
        n = abs(rel)
    else:
        n = max(-min(rel, 0), 0)
    exact = buckets // 2
    if n < exact:
        return result + n
    f32 = lambda x: torch.tensor(x, dtype=torch.float32)
    ratio = torch.log(f32(n) / exact) / torch.log(f32(MAX_DISTANCE / exact))
    large = exact + int((ratio * (buckets - exact)).item())
    return result + min(large, buckets - 1)


def sinusoid(rows):
    pe = torch.zeros(rows, D)
    for pos in range(rows):
        for i in range(D // 2):
            w = BASE ** (-(2 * i) / D)
            pe[pos, 2 * i] = math.sin(pos * w)
            pe[pos, 2 * i + 1] = math.cos(pos * w)
    return pe


def layer_norm(x, g, b):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + 1e-5) * g + b


def rope(x, t):
    """Rotates each head of x (t × D) by position, rotate_half pairs (j, j + hd/2)."""
    hd = D // HEADS
    out = x.clone()
    for h in range(HEADS):
        for j in range(hd // 2):
            f = BASE ** (-(2 * j) / hd)
            ang = torch.arange(t, dtype=torch.float64) * f
            a, b = h * hd + j, h * hd + j + hd // 2
            xa, xb = x[:, a], x[:, b]
            out[:, a] = xa * torch.cos(ang) - xb * torch.sin(ang)
            out[:, b] = xa * torch.sin(ang) + xb * torch.cos(ang)
    return out


def forward(p, enc, causal, tokens):
    t = len(tokens)
    hd = D // HEADS
    h = p["tok"][torch.tensor(tokens)]
    if enc == "sinusoidal":
        h = h + sinusoid(TEST_LEN)[:t]
    if enc == "learned":
        h = h + p["pos"][:t]
    slopes = alibi_slopes(HEADS)
    for l in range(LAYERS):
        b = lambda n: p[f"blocks.{l}.{n}"]
        a = layer_norm(h, b("ln1_g"), b("ln1_b"))
        q, k, v = a @ b("wq"), a @ b("wk"), a @ b("wv")
        if enc == "rope":
            q, k = rope(q, t), rope(k, t)
        heads = []
        for hh in range(HEADS):
            cols = slice(hh * hd, (hh + 1) * hd)
            s = q[:, cols] @ k[:, cols].T / math.sqrt(hd)
            i = torch.arange(t)[:, None]
            j = torch.arange(t)[None, :]
            if enc == "alibi":
                s = s - slopes[hh] * (i - j).abs().to(torch.float64)
            if enc == "t5":
                idx = torch.tensor([[t5_bucket(jj - ii, not causal) for jj in range(t)] for ii in range(t)])
                s = s + p["t5"][hh][idx]
            if causal:
                s = s.masked_fill(j > i, float("-inf"))
            heads.append(torch.softmax(s, -1) @ v[:, cols])
        h = h + torch.cat(heads, -1) @ b("wo")
        u = layer_norm(h, b("ln2_g"), b("ln2_b")) @ b("w1") + b("b1")
        h = h + F.gelu(u, approximate="tanh") @ b("w2") + b("b2")
    return layer_norm(h, p["lnf_g"], p["lnf_b"]) @ p["out_w"] + p["out_b"]


def loss_of(p, enc, causal, batch):
    total, n = 0.0, 0
    for ex in batch:
        logits = forward(p, enc, causal, ex["tokens"])
        for i, y in enumerate(ex["targets"]):
            if y is not None:
                total = total - torch.log_softmax(logits[i], -1)[y]
                n += 1
    return total / n


def case(enc, mask, seed):
    torch.manual_seed(seed)
    causal = mask == "causal"
    p = {}
    for name, shape in shapes(enc).items():
        if shape == (0,):
            p[name] = torch.zeros(0)
        elif name.endswith("_g"):
            p[name] = 1 + 0.3 * torch.randn(shape)
        elif name.endswith("_b") or name == "t5":
            p[name] = 0.3 * torch.randn(shape)
        else:
            p[name] = 0.5 * torch.randn(shape)
    batch = []
    for t in (6, 5, 3):
        tokens = torch.randint(0, VOCAB, (t,)).tolist()
        targets = [int(y) if r < 0.7 else None for y, r in zip(torch.randint(0, VOCAB, (t,)).tolist(), torch.rand(t).tolist())]
        if all(y is None for y in targets):
            targets[-1] = 0
        batch.append({"tokens": tokens, "targets": targets})
    flat = lambda d: {k: d[k].reshape(-1).tolist() for k in names()}
    start = flat(p)
    params = {k: v.clone().requires_grad_(v.numel() > 0) for k, v in p.items()}
    loss = loss_of(params, enc, causal, batch)
    loss.backward()
    grads = {k: (params[k].grad if params[k].grad is not None else torch.zeros_like(params[k])).reshape(-1).tolist() for k in names()}
    trained = [params[k] for k in names() if params[k].numel() > 0]
    opt = torch.optim.AdamW(trained, lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01)
    losses = []
    for _ in range(20):
        opt.zero_grad()
        l = loss_of(params, enc, causal, batch)
        losses.append(l.item())
        l.backward()
        opt.step()
    return {"enc": enc, "mask": mask, "width": D, "heads": HEADS, "layers": LAYERS, "hidden": HIDDEN,
            "train_len": TRAIN_LEN, "test_len": TEST_LEN, "vocab": VOCAB, "params": start, "batch": batch,
            "loss": loss.item(), "grads": grads, "adamw_lr": 0.01, "adamw_losses": losses,
            "after_adamw": {k: params[k].detach().reshape(-1).tolist() for k in names()}}


def main():
    cases = []
    seed = 100
    for enc in ["nope", "sinusoidal", "learned", "rope", "alibi", "t5"]:
        for mask in ["causal", "bidirectional"]:
            seed += 1
            cases.append(case(enc, mask, seed))
    out = {"provenance": f"generated by scripts/train_fixture.py with torch {torch.__version__} (CPU, float64): an independent PyTorch implementation of crates/train/src/model.rs; weights and batches drawn by torch.manual_seed; gradients by autograd; 20 steps of torch.optim.AdamW(lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.01) on the same batch.",
           "cases": cases}
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "train_pytorch.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
