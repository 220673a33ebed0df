"""Fine-tunes the WHOLE converted CenterNet (MobileNetV3 backbone, pyramid, COCO heads and the
basketball heads `ball`, `rim`, `rim_size`) end to end on ../shared/datasets/basketball-det, plus
(with --realclip-share) the labelled frames of the tuning clips (models/train/realclip-labels.json).

A developer tool (never run in CI, never imported by the runner or the tests); see docs/analysis.md
"Fine-tuned detector (models/train)" for the command that made the committed weights.

  nice -n 19 VENV/bin/python models/train/train.py --run runs/ft1 --steps 600 [--resume]
  python3 models/train/train.py --pack runs/pack --device cuda --loader-workers 6 --batch 32 --time-budget-min 6 …   (a GPU host)

Start: models/centernet.onnx as the npm build makes it (COCO CenterNet + the heads trained on frozen
features). Every Conv weight and bias is trained. Losses:
  * `ball` and `rim`: CenterNet focal loss on Gaussian centre targets (rims as their ring, as the
    heads), counted only where the data says a missing box is a negative (ball_labelled,
    rim_exhaustive tiles; gray canvas counts as negative for both);
  * `rim_size`: L1 on log(w/4), log(h/4) of the ring at ring centres;
  * COCO `heatmap` (person, sports ball) and `wh`: distillation to the frozen start model (its
    outputs from onnxruntime on the same batch), so COCO person keeps working.
Inputs: CANVAS×CANVAS gray canvases holding one image (restored aspect, scaled 0.45–1) or 2×2 / 3×3
mosaics (rims 20–60 px, as in real footage), random flips, brightness/contrast jitter, sometimes a
blur (down- and up-scaled) and, when asked, motion blur, a strong downscale and JPEG
re-encoding (--motion-blur-share, --downscale-share, --jpeg-share: compressed, small footage). Checkpoints (weights, optimiser, step) every --save-every steps in
--run; each also writes an ONNX snapshot (`step-N.onnx`) for models/train/evaluate.py (val chooses).

Sample k of the run (step s, place i in the batch: k = s·batch + i) is drawn from its own generator
seeded [seed, k], so a run gives the same samples whatever --loader-workers (parallel sample making,
torch's DataLoader) and however it was stopped and resumed. (ft1–ft3 in docs/analysis.md were made
before this, from one sequential generator: replay them at their commit.) --pack reads the images
models/train/pack.py packed (for a machine without the dataset or the clips); --device cuda trains
on a GPU; --time-budget-min fixes --steps from the speed of steps 10–60, before the warm-up ends, so
the run's schedule is the one a later `--steps N` (N as recorded in args.json) replays.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import STRIDE, compose, crop_image, heatmap, load_dataset, load_pack, load_realclip_frames, read_rgb, read_rgb_at  # noqa: E402
from onnx_torch import load  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--base", default="models/centernet.onnx", help="start model (the npm build's CenterNet with heads)")
p.add_argument("--teacher", default="models/centernet.onnx", help="model whose COCO heatmap/wh are distilled (the npm build's)")
p.add_argument("--run", default="models/train/runs/ft1", help="checkpoint folder (gitignored)")
p.add_argument("--steps", type=int, default=600)
p.add_argument("--batch", type=int, default=4)
p.add_argument("--canvas", type=int, default=320)
p.add_argument("--lr", type=float, default=1e-4, help="backbone learning rate (Adam); heads get 10×")
p.add_argument("--seed", type=int, default=24)
p.add_argument("--save-every", type=int, default=50)
p.add_argument("--threads", type=int, default=2)
p.add_argument("--w-heat", type=float, default=20, help="weight of the COCO heatmap distillation (all 80 channels, averaged)")
p.add_argument("--w-person", type=float, default=0, help="weight of a distillation of COCO's person channel alone (in the 80-channel average it weighs 1/80; the runner reads people from it)")
p.add_argument("--resume", action="store_true")
p.add_argument("--warmup", type=int, default=20, help="steps of linear learning-rate warm-up before the cosine decay")
p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
p.add_argument("--loader-workers", type=int, default=0, help="processes making samples in parallel (0: in this process)")
p.add_argument("--pack", default="", help="read the images models/train/pack.py packed into this folder instead of the dataset and the clips")
p.add_argument("--time-budget-min", type=float, default=0, help="lower --steps to what fits this many minutes at the speed of steps 10–60 (recorded in args.json)")
p.add_argument("--snapshot-at", default="", help="also save at these fractions of --steps (e.g. 0.5,0.75)")
p.add_argument("--log-every", type=int, default=10)
p.add_argument("--max-minutes", type=float, default=0, help="stop (after saving) when this much wall time has passed in this process")
p.add_argument("--realclip-share", type=float, default=0, help="share of samples that are a labelled tuning-clip frame (models/train/realclip-labels.json, train clips), whole or a crop around an object")
# Degradations of customer footage (low resolution, strong compression, a fast ball), ft3 on. All off by
# default, and off they draw no random numbers, so a run recorded without them replays the same samples.
p.add_argument("--downscale-share", type=float, default=0, help="share of samples shrunk by --downscale-min..max and scaled back up (a small video letterboxed up to the model's input)")
p.add_argument("--downscale-min", type=float, default=0.25, help="smallest shrink factor of --downscale-share")
p.add_argument("--downscale-max", type=float, default=0.6, help="largest shrink factor of --downscale-share")
p.add_argument("--jpeg-share", type=float, default=0, help="share of samples re-encoded as JPEG at quality --jpeg-quality-min..max (8x8 blocking and smeared small objects, as H.264 at a high CRF); at the shrunk size when also downscaled")
p.add_argument("--jpeg-quality-min", type=int, default=10)
p.add_argument("--jpeg-quality-max", type=int, default=45)
p.add_argument("--motion-blur-share", type=float, default=0, help="share of samples smeared along a random direction by 3..--motion-blur-max-px pixels (a fast ball, a panning phone)")
p.add_argument("--motion-blur-max-px", type=int, default=9)
args = p.parse_args()

torch.set_num_threads(args.threads)
try:
    torch.backends.nnpack.set_flags(False)
except Exception:
    pass
os.makedirs(args.run, exist_ok=True)
CKPT = os.path.join(args.run, "checkpoint.pt")
HEADS = ["ball", "rim", "rim_size"]

net = load(args.base).to_device(args.device)
head_params = net.head_param_names(HEADS)
head_keys = {net.param_key[n] for n in head_params}
backbone = [v for k, v in net.params.items() if k not in head_keys]
heads = [v for k, v in net.params.items() if k in head_keys]
opt = torch.optim.Adam([{"params": backbone, "lr": args.lr}, {"params": heads, "lr": args.lr * 10}])
print(f"trainable tensors: {len(backbone)} backbone + {len(heads)} head; parameters {sum(v.numel() for v in net.params.values())}", flush=True)

# The teacher runs in the same interpreter (it matches onnxruntime within 1e-6 on the heatmap: check_interpreter.py).
teacher = load(args.teacher).to_device(args.device).eval()
for v in teacher.parameters():
    v.requires_grad_(False)
if args.device.startswith("cuda"):
    torch.backends.cudnn.benchmark = True

torch.manual_seed(args.seed)
step = 0
log_path = os.path.join(args.run, "log.jsonl")
if args.resume and os.path.exists(CKPT):
    ck = torch.load(CKPT, weights_only=False, map_location=args.device)
    net.params.load_state_dict(ck["params"])
    opt.load_state_dict(ck["opt"])
    step = ck["step"]
    print(f"resumed at step {step}", flush=True)
    if ck["args"]["steps"] != args.steps:
        print(f"note: --steps {args.steps} differs from the run's {ck['args']['steps']} (the schedule follows --steps)", flush=True)
elif os.path.exists(CKPT):
    sys.exit(f"{CKPT} exists: pass --resume or choose another --run")


def write_args() -> None:
    with open(os.path.join(args.run, "args.json"), "w") as f:
        json.dump(vars(args), f, indent=1)


write_args()

if args.pack:
    images, packed_frames = load_pack(args.pack)
else:
    images = [im for im in load_dataset() if im.split == "train"]
rim_pool = [im for im in images if im.rim_exhaustive]
ball_pool = [im for im in images if im.ball_labelled]
print(f"train images: {len(images)} ({len(rim_pool)} rim-exhaustive, {len(ball_pool)} ball-labelled)", flush=True)
# Frames from the tuning clips only (the loader refuses any other clip); the label file's val clips stay out.
realclip_pool = (packed_frames if args.pack else [im for im in load_realclip_frames() if im.split == "train"]) if args.realclip_share else []
if args.realclip_share:
    print(f"tuning-clip frames: {len(realclip_pool)} from {len({im.session for im in realclip_pool})} clips, share {args.realclip_share}", flush=True)

_cache: dict[str, np.ndarray] = {}


def cached(file: str) -> np.ndarray:
    # Decoded images, kept at 320×320 (enough for every tile size used here): ~300 kB each.
    if file not in _cache:
        import cv2
        _cache[file] = read_rgb_at(file, args.canvas) if args.pack else cv2.resize(read_rgb(file), (args.canvas, args.canvas), interpolation=cv2.INTER_AREA)
    return _cache[file]


_full: dict[str, np.ndarray] = {}


def realclip_sample(rng: np.random.Generator):
    """One tuning-clip frame on the canvas: whole (40 %) or a window of 30–80 % of its sides around a
    labelled object (or anywhere when it has none), as the runner sees whole frames and rim crops."""
    im = realclip_pool[int(rng.integers(len(realclip_pool)))]
    if im.file not in _full:  # kept at the dataset's 640×640 (stretched): crops need more than 320
        _full[im.file] = read_rgb_at(im.file, 640) if args.pack else read_rgb(im.file)
    rgb = _full[im.file]
    if rng.random() < 0.4:
        return compose([im], args.canvas, 1, rng, (0.6, 1.0), cache=lambda f: rgb)
    f = rng.uniform(0.3, 0.8)
    if im.boxes:
        _, cx, cy, _, _ = im.boxes[int(rng.integers(len(im.boxes)))]
    else:
        cx, cy = rng.uniform(0, 1), rng.uniform(0, 1)
    cx, cy = cx + rng.uniform(-0.3, 0.3) * f, cy + rng.uniform(-0.3, 0.3) * f
    x0, y0 = min(max(0.0, cx - f / 2), 1 - f), min(max(0.0, cy - f / 2), 1 - f)
    part, pixels = crop_image(im, rgb, x0, y0, x0 + f, y0 + f)
    return compose([part], args.canvas, 1, rng, (0.6, 1.0), rgbs=[pixels])


def degrade(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The footage degradations of --motion-blur-share, --downscale-share and --jpeg-share, in the order
    a video meets them: motion while filming, then a small frame, then the encoder; the runner then
    scales the frame up to its input. A share of 0 draws no random number. → float32 in 0..255."""
    import cv2
    if args.motion_blur_share and rng.random() < args.motion_blur_share:
        length = int(rng.integers(3, args.motion_blur_max_px + 1))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    size = args.canvas
    if args.downscale_share and rng.random() < args.downscale_share:
        size = max(16, int(args.canvas * rng.uniform(args.downscale_min, args.downscale_max)))
        img = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    if args.jpeg_share and rng.random() < args.jpeg_share:
        quality = int(rng.integers(args.jpeg_quality_min, args.jpeg_quality_max + 1))
        bgr = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
        img = cv2.cvtColor(cv2.imdecode(cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    if size != args.canvas:
        img = cv2.resize(img, (args.canvas, args.canvas), interpolation=cv2.INTER_LINEAR)
    return np.clip(img, 0, 255).astype(np.float32)


def sample(rng: np.random.Generator):
    if args.realclip_share and rng.random() < args.realclip_share:
        placed = realclip_sample(rng)
    else:
        k = int(rng.choice([1, 2, 3], p=[0.3, 0.45, 0.25]))
        tiles = []
        for _ in range(k * k):
            pool = rim_pool if rng.random() < 0.45 else ball_pool
            tiles.append(pool[int(rng.integers(len(pool)))])
        placed = compose(tiles, args.canvas, k, rng, (0.45, 1.0) if k == 1 else (0.7, 1.0), cache=cached)
    img = placed.rgb.astype(np.float32)
    # Photometric jitter: brightness, contrast; sometimes a blur like a small, soft real-footage object.
    img = (img - 128) * rng.uniform(0.7, 1.3) + 128 + rng.uniform(-30, 30)
    if rng.random() < 0.25:
        import cv2
        f = rng.uniform(0.4, 0.8)
        small = cv2.resize(img, (int(args.canvas * f), int(args.canvas * f)), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (args.canvas, args.canvas), interpolation=cv2.INTER_LINEAR)
    img = degrade(np.clip(img, 0, 255), rng)
    g = args.canvas // STRIDE
    balls = [b for b in placed.boxes if b[0] == "ball"]
    rims = [b for b in placed.boxes if b[0] == "rim"]
    size_t = np.zeros((2, g, g), np.float32)
    size_m = np.zeros((g, g), np.float32)
    for _, cx, cy, w, h in rims:
        gx, gy = min(g - 1, max(0, round(cx / STRIDE))), min(g - 1, max(0, round(cy / STRIDE)))
        size_t[:, gy, gx] = (math.log(max(w, 1) / 4), math.log(max(h, 1) / 4))
        size_m[gy, gx] = 1
    # Loss masks at grid resolution; positives always count (a labelled box is a positive).
    ball_t, rim_t = heatmap(balls, g, g), heatmap(rims, g, g)
    ball_m = np.maximum(placed.ball_mask[STRIDE // 2::STRIDE, STRIDE // 2::STRIDE][:g, :g], (ball_t > 0.01).astype(np.float32))
    rim_m = np.maximum(placed.rim_mask[STRIDE // 2::STRIDE, STRIDE // 2::STRIDE][:g, :g], (rim_t > 0.01).astype(np.float32))
    return img, ball_t, ball_m, rim_t, rim_m, size_t, size_m


def focal(pred: torch.Tensor, target: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on sigmoid outputs (α=2, β=4), summed over counted cells / positives."""
    p = pred.clamp(1e-4, 1 - 1e-4)
    pos = (target >= 1).float() * mask
    neg = (1 - (target >= 1).float()) * mask
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * neg).sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def bce_gap(pred: torch.Tensor, teacher: torch.Tensor) -> torch.Tensor:
    """Binary cross-entropy to the teacher's scores minus its floor (the teacher's own entropy): 0 when equal."""
    return F.binary_cross_entropy(pred.clamp(1e-6, 1 - 1e-6), teacher) - F.binary_cross_entropy(teacher.clamp(1e-6, 1 - 1e-6), teacher)


def lr_factor(s: int) -> float:
    warm = args.warmup
    if s < warm:
        return (s + 1) / warm
    return 0.5 * (1 + math.cos(math.pi * min(1.0, (s - warm) / max(1, args.steps - warm))))


def save(step: int) -> None:
    tmp = CKPT + ".tmp"
    torch.save({"params": net.params.state_dict(), "opt": opt.state_dict(), "step": step, "args": vars(args)}, tmp)
    os.replace(tmp, CKPT)
    import onnx
    onnx.save(net.write_onnx({"fine_tuned": json.dumps({"by": "models/train/train.py", "step": step, "args": vars(args)})}), os.path.join(args.run, f"step-{step}.onnx"))


class Samples(torch.utils.data.Dataset):
    """Sample k of the run, from its own generator seeded [seed, k] (the same in any worker)."""

    def __len__(self) -> int:
        return args.steps * args.batch

    def __getitem__(self, k: int):
        return sample(np.random.default_rng([args.seed, k]))


def snapshot_steps() -> set[int]:
    """The steps --snapshot-at names, as fractions of --steps (once --steps is final)."""
    return {round(args.steps * float(f)) for f in args.snapshot_at.split(",") if f}


loader = torch.utils.data.DataLoader(
    torch.utils.data.Subset(Samples(), range(step * args.batch, args.steps * args.batch)), batch_size=args.batch,
    num_workers=args.loader_workers, pin_memory=args.device.startswith("cuda"), prefetch_factor=4 if args.loader_workers else None,
    worker_init_fn=lambda _: __import__("cv2").setNumThreads(1))  # one thread per worker: the workers are the parallelism
snapshots = set() if args.time_budget_min else snapshot_steps()
started = time.time()
timed_from = 0.0
net.train()
for batch in loader:
    if step >= args.steps:
        break
    t0 = time.time()
    imgs, ball_t, ball_m, rim_t, rim_m, size_t, size_m = (b.to(args.device, non_blocking=True) for b in batch)
    with torch.no_grad():
        taught = teacher(imgs, ["heatmap", "wh"])
    t_heat, t_wh = taught["heatmap"], taught["wh"]
    out = net(imgs, ["heatmap", "wh", "ball", "rim", "rim_size"])
    ball_t, ball_m, rim_t, rim_m, size_m = ball_t[:, None], ball_m[:, None], rim_t[:, None], rim_m[:, None], size_m[:, None]
    l_ball = focal(out["ball"], ball_t, ball_m)
    l_rim = focal(out["rim"], rim_t, rim_m)
    l_size = (torch.abs(out["rim_size"] - size_t) * size_m).sum() / size_m.sum().clamp(min=1) / 2
    # Distillation: keep COCO's person / sports-ball scores and boxes where the start model sees a person.
    l_heat = bce_gap(out["heatmap"], t_heat)
    w_person = (t_heat[:, :1] > 0.1).float()
    l_wh = (torch.abs(out["wh"] - t_wh) / 16 * w_person).sum() / w_person.sum().clamp(min=1) / 4
    l_person = bce_gap(out["heatmap"][:, :1], t_heat[:, :1]) if args.w_person else torch.zeros((), device=imgs.device)
    loss = l_ball + l_rim + 0.5 * l_size + args.w_heat * l_heat + l_wh + args.w_person * l_person
    for i, g in enumerate(opt.param_groups):
        g["lr"] = (args.lr if i == 0 else args.lr * 10) * lr_factor(step)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(list(net.params.values()), 5.0)
    opt.step()
    step += 1
    rec = {"step": step, "loss": round(loss.item(), 4), "ball": round(l_ball.item(), 4), "rim": round(l_rim.item(), 4), "size": round(l_size.item(), 4), "heat": round(l_heat.item(), 5), "person": round(l_person.item(), 5), "wh": round(l_wh.item(), 4), "s": round(time.time() - t0, 3), "lr": opt.param_groups[0]["lr"]}
    with open(log_path, "a") as f:
        f.write(json.dumps(rec) + "\n")
    if step % args.log_every == 0 or step == 1:
        print(json.dumps(rec), flush=True)
    if args.time_budget_min and step == 10:
        timed_from = time.time()
    if args.time_budget_min and step == 60:
        # Steps 10–60 (data loading included) set the step count; the warm-up is still running, so the
        # schedule so far is the same as a run started with --steps at the resolved number.
        per_step = (time.time() - timed_from) / 50
        fit = int((args.time_budget_min * 60 - (time.time() - started)) / per_step) + step
        if fit < args.steps:
            args.steps = max(fit, args.warmup + 1)
        print(f"{per_step:.3f} s a step: --steps {args.steps} for {args.time_budget_min} min", flush=True)
        args.time_budget_min = 0
        write_args()
        snapshots = snapshot_steps()
    out_of_time = args.max_minutes and (time.time() - started) / 60 >= args.max_minutes
    if step % args.save_every == 0 or step == args.steps or step in snapshots or out_of_time:
        save(step)
        print(f"saved step {step} ({(time.time() - started) / 60:.1f} min)", flush=True)
    if out_of_time:
        print("stopping: --max-minutes reached; continue with --resume", flush=True)
        break
