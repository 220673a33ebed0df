"""Trains LineNet on generated pictures (render.py) for a fixed time on the CPU and exports it to ONNX.

python train.py DATA.npz[,DATA.npz…] MINUTES OUT_DIR [START.pt]
The first 200 pictures of the first file are held back; precision and recall at p > 0.5 on 64 of them
are printed every 100 steps.
"""
import sys, time, numpy as np, torch, torch.nn as nn, torch.nn.functional as F
torch.set_num_threads(2)
torch.manual_seed(0)


def block(i, o, d=1):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=d, dilation=d), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class LineNet(nn.Module):
    """Painted-line mask of an RGB picture: a small U-Net (two halvings, dilated context at the bottom)."""
    def __init__(s, c=(12, 24, 48)):
        super().__init__()
        s.e1 = nn.Sequential(block(3, c[0]), block(c[0], c[0]))
        s.e2 = nn.Sequential(block(c[0], c[1]), block(c[1], c[1]))
        s.e3 = nn.Sequential(block(c[1], c[2]), block(c[2], c[2], 2), block(c[2], c[2], 4), block(c[2], c[2], 8))
        s.d2 = nn.Sequential(block(c[2] + c[1], c[1]), block(c[1], c[1]))
        s.d1 = nn.Sequential(block(c[1] + c[0], c[0]), nn.Conv2d(c[0], 1, 1))

    def forward(s, x):
        x = x / 127.5 - 1
        a = s.e1(x)
        b = s.e2(F.max_pool2d(a, 2))
        c = s.e3(F.max_pool2d(b, 2))
        u = F.interpolate(c, size=b.shape[2:], mode="bilinear", align_corners=False)
        u = s.d2(torch.cat([u, b], 1))
        u = F.interpolate(u, size=a.shape[2:], mode="bilinear", align_corners=False)
        return s.d1(torch.cat([u, a], 1))


if __name__ == "__main__":
    files = sys.argv[1].split(",")
    minutes = float(sys.argv[2])
    out = sys.argv[3]
    np.random.seed(0)
    imgs = np.concatenate([np.load(f)["imgs"] for f in files]); labs = np.concatenate([np.load(f)["labs"] for f in files])
    nval = 200
    X = torch.from_numpy(imgs).permute(0, 3, 1, 2); Y = torch.from_numpy(labs)[:, None]
    Xv, Yv, X, Y = X[:nval], Y[:nval], X[nval:], Y[nval:]
    net = LineNet()
    if len(sys.argv) > 4: net.load_state_dict(torch.load(sys.argv[4]))
    print("params", sum(p.numel() for p in net.parameters()))
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    pw = torch.tensor(4.0)
    t0 = time.time(); step = 0; B = 16; CH, CW = 128, 192
    while time.time() - t0 < minutes * 60:
        idx = torch.randint(0, len(X), (B,))
        y0 = np.random.randint(0, 192 - CH + 1); x0 = np.random.randint(0, 320 - CW + 1)
        xb = X[idx, :, y0:y0 + CH, x0:x0 + CW].float(); yb = Y[idx, :, y0:y0 + CH, x0:x0 + CW].float()
        if np.random.rand() < 0.5: xb, yb = xb.flip(3), yb.flip(3)
        # colour jitter: channel gains and order
        xb = xb[:, torch.randperm(3)] if np.random.rand() < 0.3 else xb
        xb = (xb * torch.empty(B, 3, 1, 1).uniform_(0.8, 1.2)).clamp(0, 255)
        net.train()
        loss = F.binary_cross_entropy_with_logits(net(xb), yb, pos_weight=pw)
        opt.zero_grad(); loss.backward(); opt.step(); step += 1
        frac = (time.time() - t0) / (minutes * 60)
        for g in opt.param_groups: g["lr"] = 3e-3 * 0.5 * (1 + np.cos(np.pi * min(1, frac)))
        if step % 100 == 0:
            net.eval()
            with torch.no_grad():
                p = torch.sigmoid(net(Xv[:64].float())) > 0.5; t = Yv[:64] > 0
                tp = (p & t).sum().item(); prec = tp / max(1, p.sum().item()); rec = tp / max(1, t.sum().item())
            print(f"step {step} {time.time() - t0:.0f}s loss {loss.item():.3f} val precision {prec:.3f} recall {rec:.3f}", flush=True)
            torch.save(net.state_dict(), f"{out}/linenet.pt")
    torch.save(net.state_dict(), f"{out}/linenet.pt")
    net.eval()
    torch.onnx.export(net, torch.zeros(1, 3, 272, 480), f"{out}/linenet.onnx", input_names=["rgb"], output_names=["logit"],
                      dynamic_axes={"rgb": {2: "h", 3: "w"}, "logit": {2: "h", 3: "w"}}, opset_version=17, dynamo=False)
    print("exported")
