"""Average precision of any CenterNet-contract ONNX model (outputs `heatmap`, `ball`, `rim`) on a split
of ../shared/datasets/basketball-det, run in onnxruntime: the same script scores the shipped model
(models/centernet.onnx, heads on frozen features) and a fine-tuned one.

  VENV/bin/python models/train/evaluate.py MODEL.onnx [MODEL2.onnx …] [--split test] [--json out.json]
  VENV/bin/python models/train/evaluate.py MODEL.onnx … --data realclips --split val   (the labelled
      tuning-clip frames of models/train/realclip-labels.json; `val` = its val clips, never trained on)

Inputs: each image with its original aspect restored, letterboxed on a 512×512 gray canvas
("single"), and 2×2 / 3×3 mosaics of such images on 512×512 ("mosaic2", "mosaic3": objects at
1/2 and 1/3 size, like rims of 20–50 px in real footage), built with a fixed seed from the images
that are labelled for the class; any of them degraded as compressed, small footage ("jpeg20": single
images re-encoded as JPEG at quality 20; "down50+jpeg30": shrunk to half, JPEG 30, scaled back up;
"mosaic3+jpeg20"; see `degrade`). Detections: 3×3 local maxima of the class plane (as the runner's
`peaks`), score ≥ 0.01, at most 100 per input, at the cell centre (4x, 4y). A detection is right
when its centre lies within one object width (the larger side of the box; rims as their ring, the
top 0.3·width of the rim+net box) of a not yet matched truth centre, greedily by score. AP = area
under the all-point interpolated precision/recall curve (VOC style) over all inputs of the split.
Classes: `ball` (output `ball`; on ball_labelled images), `sports ball` (COCO's channel of
`heatmap`, same images), `rim` (output `rim`; rim_exhaustive images; also "top-1": share of
single-rim inputs whose highest peak is right), `person` (COCO's channel; images of the source that
labels people).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import compose, letterbox, load_dataset, load_realclip_frames, read_rgb  # noqa: E402

SIZE = 512


def peaks(plane: np.ndarray, threshold=0.01, max_peaks=100):
    h, w = plane.shape
    pad = np.pad(plane, 1, constant_values=-1)
    neigh = np.max(np.stack([pad[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)]), axis=0)
    ys, xs = np.nonzero((plane >= neigh) & (plane >= threshold))
    s = plane[ys, xs]
    order = np.argsort(-s, kind="stable")[:max_peaks]  # ties keep row-major order, as the runner's peaks
    return [(float(s[i]), 4.0 * xs[i], 4.0 * ys[i]) for i in order]


def match(dets, truths):
    """dets: [(score, x, y)], truths: [(cx, cy, w, h)] → [(score, is_tp)]."""
    used = [False] * len(truths)
    out = []
    for s, x, y in sorted(dets, key=lambda d: -d[0]):
        best, best_d = -1, 1e9
        for i, (cx, cy, w, h) in enumerate(truths):
            d = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
            if not used[i] and d <= max(w, h) and d < best_d:
                best, best_d = i, d
        if best >= 0:
            used[best] = True
        out.append((s, best >= 0))
    return out


def average_precision(scored, n_truth):
    if n_truth == 0:
        return float("nan")
    scored = sorted(scored, key=lambda t: -t[0])
    tp = np.cumsum([1 if t else 0 for _, t in scored])
    fp = np.cumsum([0 if t else 1 for _, t in scored])
    recall = tp / n_truth
    precision = tp / np.maximum(tp + fp, 1)
    mrec = np.concatenate([[0], recall, [recall[-1] if len(recall) else 0]])
    mpre = np.concatenate([[1], precision, [0]])
    for i in range(len(mpre) - 2, -1, -1):
        mpre[i] = max(mpre[i], mpre[i + 1])
    idx = np.nonzero(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[idx + 1] - mrec[idx]) * mpre[idx + 1]))


def degrade(canvas: np.ndarray, steps: list[str]) -> np.ndarray:
    """A canvas as compressed, small footage reaches the model: `downN` shrinks it to N % (INTER_AREA),
    `jpegQ` re-encodes it as JPEG at quality Q (at the shrunk size when both are given: the encoder
    sees the small frame), and a shrunk canvas is scaled back up (INTER_LINEAR), as the runner
    letterboxes a small frame up to its input. Deterministic: every model sees the same pixels."""
    import cv2
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    size = img.shape[1], img.shape[0]
    for step in steps:
        if step.startswith("down"):
            f = int(step[4:]) / 100
            img = cv2.resize(img, (max(16, round(size[0] * f)), max(16, round(size[1] * f))), interpolation=cv2.INTER_AREA)
        elif step.startswith("jpeg"):
            ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, int(step[4:])])
            img = cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        else:
            raise ValueError(f"unknown degradation {step!r} (downN, jpegQ)")
    if (img.shape[1], img.shape[0]) != size:
        img = cv2.resize(img, size, interpolation=cv2.INTER_LINEAR)
    return img.astype(np.float32)


def build_inputs(images, condition: str, seed: int):
    """[(canvas, boxes)] for one condition; mosaics use a fixed seed so every model sees the same inputs.
    A condition is a layout (single, mosaic2, mosaic3; single when left out) followed by degradations
    joined with "+": `jpeg20` (single, JPEG quality 20), `down50+jpeg30`, `mosaic3+jpeg20`."""
    layout, *steps = condition.split("+")
    if not layout.startswith(("single", "mosaic")):
        layout, steps = "single", [layout, *steps]
    if steps:
        return [(degrade(canvas, steps), boxes) for canvas, boxes in build_inputs(images, layout, seed)]
    condition = layout
    cache: dict[str, np.ndarray] = {}

    def rgb(f):
        if f not in cache:
            cache[f] = read_rgb(f)
        return cache[f]
    if condition == "single":
        return [letterbox(im, SIZE, rgb(im.file)) for im in images]
    k = {"mosaic2": 2, "mosaic3": 3}[condition]
    rng = np.random.default_rng(seed)
    order = list(rng.permutation(len(images)))
    out = []
    for i in range(0, len(order), k * k):
        tiles = [images[j] for j in order[i:i + k * k]]
        while len(tiles) < k * k:
            tiles.append(images[int(rng.integers(len(images)))])
        placed = compose(tiles, SIZE, k, rng, (0.7, 1.0), cache=rgb)
        out.append((placed.rgb, placed.boxes))
    return out


class Model:
    def __init__(self, path: str):
        o = ort.SessionOptions()
        o.intra_op_num_threads = 1
        self.session = ort.InferenceSession(path, o, providers=["CPUExecutionProvider"])
        meta = self.session.get_modelmeta().custom_metadata_map
        self.classes = json.loads(meta.get("classes", '["person","sports ball"]'))

    def run(self, canvas: np.ndarray):
        names = ["heatmap", "ball", "rim"]
        heat, ball, rim = self.session.run(names, {"images": canvas[None].astype(np.float32)})
        return {
            "ball": ball[0, 0],
            "rim": rim[0, 0],
            "sports ball": heat[0, self.classes.index("sports ball")],
            "person": heat[0, self.classes.index("person")],
        }


CLASS_SETS = {
    # class → (output plane, label class, which images count)
    "ball": ("ball", "ball", lambda im: im.ball_labelled),
    "sports ball": ("sports ball", "ball", lambda im: im.ball_labelled),
    "rim": ("rim", "rim", lambda im: im.rim_exhaustive),
    "person": ("person", "person", lambda im: im.source == "hong_basketball_v1"),
}


def evaluate(models: list[str], split: str, conditions: list[str], seed: int = 99, data: str = "dataset"):
    images = [im for im in (load_realclip_frames() if data == "realclips" else load_dataset()) if im.split == split]
    sessions = [Model(m) for m in models]
    results = {m: {} for m in models}
    for cls, (plane, label, eligible) in CLASS_SETS.items():
        subset = [im for im in images if eligible(im)]
        for cond in conditions:
            inputs = build_inputs(subset, cond, seed)
            for m, sess in zip(models, sessions):
                scored, n_truth, top1, single = [], 0, 0, 0
                for canvas, boxes in inputs:
                    truths = [b[1:] for b in boxes if b[0] == label]
                    dets = peaks(sess.run(canvas)[plane])
                    scored += match(dets, truths)
                    n_truth += len(truths)
                    if len(truths) == 1:
                        single += 1
                        top1 += bool(dets) and match(dets[:1], truths)[0][1]
                r = {"AP": round(average_precision(scored, n_truth), 4), "truths": n_truth, "inputs": len(inputs)}
                for thr in (0.3, 0.5):  # operating points: recall and false positives per input
                    tp = sum(1 for sc, t in scored if t and sc >= thr)
                    fp = sum(1 for sc, t in scored if not t and sc >= thr)
                    r[f"at{thr}"] = {"recall": round(tp / max(n_truth, 1), 3), "fp_per_input": round(fp / max(len(inputs), 1), 2)}
                # The lowest threshold with at most 0.25 false positives per input, and the recall there:
                # an operating point that compares models whose score scales differ.
                fp_budget, fp, tp, thr_at = 0.25 * len(inputs), 0, 0, 1.0
                for sc, t in sorted(scored, key=lambda d: -d[0]):
                    if not t and fp + 1 > fp_budget:
                        break
                    fp, tp, thr_at = fp + (not t), tp + t, sc
                r["fp0.25"] = {"threshold": round(thr_at, 4), "recall": round(tp / max(n_truth, 1), 3)}
                if cls == "rim":
                    r["top1"] = f"{top1}/{single}"
                results[m][f"{cls}/{cond}"] = r
                print(f"{os.path.basename(m):28s} {cls:12s} {cond:8s} AP {r['AP']:.3f}  ({n_truth} truths, {len(inputs)} inputs)  R/FP@.3 {r['at0.3']['recall']}/{r['at0.3']['fp_per_input']}  @.5 {r['at0.5']['recall']}/{r['at0.5']['fp_per_input']}  R@0.25FP {r['fp0.25']['recall']} (thr {r['fp0.25']['threshold']}){'  top-1 ' + r['top1'] if 'top1' in r else ''}", flush=True)
    return results


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="+")
    p.add_argument("--split", default="test")
    p.add_argument("--conditions", default="single,mosaic2,mosaic3")
    p.add_argument("--classes", default="")
    p.add_argument("--json", default="")
    p.add_argument("--data", default="dataset", choices=["dataset", "realclips"])
    a = p.parse_args()
    if a.classes:
        for k in list(CLASS_SETS):
            if k not in a.classes.split(","):
                del CLASS_SETS[k]
    res = evaluate(a.models, a.split, a.conditions.split(","), data=a.data)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"data": a.data, "split": a.split, "results": res}, f, indent=1)
