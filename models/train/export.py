"""Writes a fine-tuned checkpoint as the committed model and the reference values its test checks.

  VENV/bin/python models/train/export.py --run models/train/runs/ft1 --step 1600 [--out models/basketball-centernet.onnx]

The weights go into a copy of the start graph (same nodes, input `images` NHWC float 0–255, outputs
`heatmap`, `wh`, `feature`, `ball`, `rim`, `rim_size`, same metadata plus `fine_tuned`: the train.py
command, the start file (and its own `fine_tuned` record when it was fine-tuned before), the data (the
tuning-clip label file's sha256 and share when used), seed, step, args and --metrics), so the file is
a drop-in for models/centernet.onnx. Checks before writing: the file's input/output names equal the
start model's, and onnxruntime on the written file reproduces the PyTorch interpreter (max |diff|
printed, must be small). Then writes <out>.reference.json: top peaks and sums of the outputs on
`synthetic_scene` (a deterministic drawing that test/gpu-runner/basketball-centernet.test.ts
recomputes in TypeScript with the same integer/double arithmetic).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import REALCLIP_LABELS  # noqa: E402
from evaluate import peaks  # noqa: E402
from onnx_torch import OnnxNet, load  # noqa: E402

SCENE_SIZE = 320
BALL_CENTRE = (96, 208)
RIM_CENTRE = (224, 96)


def synthetic_scene(size: int = SCENE_SIZE) -> np.ndarray:
    """RGB uint8 [size, size, 3]: a textured gray wall, a white backboard, an orange-red rim ring
    with a white net, and an orange ball (same formula as the TypeScript test)."""
    img = np.zeros((size, size, 3), np.uint8)
    bx, by = BALL_CENTRE
    rx, ry = RIM_CENTRE
    for y in range(size):
        for x in range(size):
            rgb = [90 + ((x * 3 + y * 5 + c * 40) % 64) for c in range(3)]
            if rx - 40 <= x < rx + 40 and ry - 56 <= y < ry + 8:
                rgb = [235, 235, 235]
                if (rx - 14 <= x < rx + 14 and ry - 30 <= y < ry + 2) and not (rx - 11 <= x < rx + 11 and ry - 27 <= y < ry + 2):
                    rgb = [200, 40, 30]
            dx, dy = x - rx, y - ry
            if 0 < dy < 40 and abs(dx) < 26 - dy * 0.3 and ((x + y) % 8 == 0 or (x - y + 800) % 8 == 0):
                rgb = [250, 250, 250]
            e = (dx / 28) ** 2 + (dy / 7) ** 2
            if abs(e - 1) < 0.3:
                rgb = [220, 70, 20]
            d2 = (x - bx) ** 2 + (y - by) ** 2
            if d2 <= 100:
                rgb = [225, 110, 35] if d2 > 4 and abs(x - bx) > 1 else [60, 30, 20]
            img[y, x] = rgb
    return img


def reference(session: ort.InferenceSession) -> dict:
    img = synthetic_scene().astype(np.float32)[None]
    names = [o.name for o in session.get_outputs()]
    out = dict(zip(names, session.run(None, {"images": img})))
    ref = {"input": f"synthetic_scene {SCENE_SIZE}x{SCENE_SIZE}", "ball_centre": BALL_CENTRE, "rim_centre": RIM_CENTRE, "outputs": {}}
    for name in names:
        v = out[name]
        entry = {"shape": list(v.shape), "sum": float(v.astype(np.float64).sum()), "max": float(v.max())}
        if name in ("ball", "rim"):
            entry["peaks"] = [[round(s, 6), int(x), int(y)] for s, x, y in peaks(v[0, 0], 0.0, 3)]
        ref["outputs"][name] = entry
    return ref


def training_command(run_args: dict) -> str:
    """The train.py command line that the run's args.json records (every option, defaults included)."""
    flags = []
    for k, v in run_args.items():
        flag = "--" + k.replace("_", "-")
        if isinstance(v, bool):
            flags += [flag] if v else []
        else:
            flags += [flag, str(v)]
    return " ".join(["nice -n 19 VENV/bin/python models/train/train.py", *flags])


def start_record(run_args: dict) -> dict:
    """Where the run started: the npm build's CenterNet, or an earlier fine-tuned file, whose own
    `fine_tuned` record is kept whole so the file's metadata holds its full lineage."""
    base = run_args["base"]
    props = {p.key: p.value for p in onnx.load(base).metadata_props}
    if "fine_tuned" not in props:
        return {"start": f"{base} as built by npm ci (COCO CenterNet + heads from models/heads)"}
    earlier = json.loads(props["fine_tuned"])
    if earlier.get("args", {}).get("run") == run_args["run"]:
        # Exporting the same run twice over its own start file would record it as its own ancestor.
        sys.exit(f"{base} already holds this run's export: restore the start file (git checkout) first")
    return {"start": f"{base}, itself fine-tuned (its record in start_fine_tuned)", "start_fine_tuned": earlier}


def training_data(run_args: dict) -> str:
    data = "train split of ../shared/datasets/basketball-det (CC BY 4.0, see docs/analysis.md)"
    share = run_args.get("realclip_share") or 0
    if share:
        with open(REALCLIP_LABELS, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        data += (f"; a share {share} of the samples a labelled frame of the train clips of models/train/realclip-labels.json"
                 f" (sha256 {digest}; tuning clips of ../shared/realclips only, never a held_out clip)")
    degradations = [f"{name} {run_args[key]}" + extra for key, name, extra in (
        ("motion_blur_share", "motion blur", f" (3-{run_args.get('motion_blur_max_px')} px)"),
        ("downscale_share", "downscale-then-upscale", f" (x{run_args.get('downscale_min')}-{run_args.get('downscale_max')})"),
        ("jpeg_share", "JPEG re-encoding", f" (quality {run_args.get('jpeg_quality_min')}-{run_args.get('jpeg_quality_max')})"),
    ) if run_args.get(key)]
    if degradations:
        data += "; shares of the samples degraded as compressed, small footage: " + ", ".join(degradations)
    return data + "; chosen on validation figures only (metrics)"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--run", required=True)
    p.add_argument("--step", type=int, required=True)
    p.add_argument("--base", default="models/centernet.onnx")
    p.add_argument("--out", default="models/basketball-centernet.onnx")
    p.add_argument("--metrics", default="", help="JSON file with the evaluation to record in the metadata")
    a = p.parse_args()
    torch.set_num_threads(2)
    snapshot = os.path.join(a.run, f"step-{a.step}.onnx")
    net = load(snapshot)
    run_args = json.load(open(os.path.join(a.run, "args.json")))
    meta = {"fine_tuned": json.dumps({
        "by": "models/train/train.py, then models/train/export.py",
        "command": training_command(run_args),
        **start_record(run_args),
        "data": training_data(run_args),
        "seed": run_args["seed"], "step": a.step, "args": run_args,
        "metrics": json.load(open(a.metrics)) if a.metrics else None,
    })}
    model = net.write_onnx(meta)
    base = onnx.load(a.base)
    if [i.name for i in model.graph.input] != [i.name for i in base.graph.input] or [o.name for o in model.graph.output] != [o.name for o in base.graph.output]:
        sys.exit("the exported graph's inputs/outputs differ from the start model's")
    onnx.checker.check_model(model)
    onnx.save(model, a.out)
    session = ort.InferenceSession(a.out, providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(5)
    worst = {}
    for h, w in [(320, 320), (256, 384)]:
        img = np.concatenate([synthetic_scene()[:h, :w], rng.integers(0, 256, (max(0, h - SCENE_SIZE), w, 3), dtype=np.uint8)])[:h] if w <= SCENE_SIZE else rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
        x = img.astype(np.float32)[None]
        ref = dict(zip([o.name for o in session.get_outputs()], session.run(None, {"images": x})))
        with torch.no_grad():
            got = net(torch.from_numpy(x))
        for k, v in got.items():
            worst[k] = max(worst.get(k, 0.0), float(np.abs(v.numpy() - ref[k]).max()))
    print("onnxruntime vs torch, max |diff|:", json.dumps(worst))
    if worst["ball"] > 1e-4 or worst["rim"] > 1e-4 or worst["heatmap"] > 1e-4:
        sys.exit("exported model does not reproduce the PyTorch interpreter")
    ref = reference(session)
    with open(os.path.splitext(a.out)[0] + ".reference.json", "w") as f:
        json.dump(ref, f, indent=1)
        f.write("\n")
    print(json.dumps({k: v.get("peaks") for k, v in ref["outputs"].items() if "peaks" in v}))
    print(f"wrote {a.out} ({os.path.getsize(a.out) / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
