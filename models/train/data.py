"""The labelled stills of ../shared/datasets/basketball-det for models/train (Python port of
models/heads/dataset.ts and the heads' ring/letterbox rules, so the fine-tuned network learns and is
measured on the same targets as the heads it replaces), and the labelled frames of the TUNING clips
of ../shared/realclips (models/train/realclip-labels.json; load_realclip_frames). Images are read at
run time only; none is copied into the repository."""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from dataclasses import dataclass, field

import cv2
import numpy as np

DATASET_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "../../../shared/datasets/basketball-det"))
REALCLIPS_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "../../../shared/realclips"))
REALCLIP_LABELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "realclip-labels.json")
# Frames extracted from the clips at run time (never committed): under the gitignored runs/ folder.
REALCLIP_CACHE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs", "realclip-frames")
IMAGE_SIZE = 640
STRIDE = 4
# Unified ids 0 ball, 1 rim, 2 person, 3 ball_made, 4 ball_backboard; 3 and 4 are ball boxes.
CLASS_OF = {"0": "ball", "1": "rim", "2": "person", "3": "ball", "4": "ball"}
COMMON_ASPECTS = [9 / 16, 3 / 4, 1, 4 / 3, 16 / 9]


@dataclass
class Image:
    file: str
    split: str
    source: str
    session: str
    rim_exhaustive: bool
    ball_labelled: bool
    boxes: list  # (cls, cx, cy, w, h) in 0..1 of the stretched 640×640 image
    aspect: float = 1.0
    # (cx, cy, w, h) in 0..1: objects cut by a crop (centre outside it) — neither positive nor negative.
    ignore: list = field(default_factory=list)


def _snap(r: float) -> float:
    return min(COMMON_ASPECTS, key=lambda a: abs(math.log(a / r)))


def _estimate_aspects(images: list[Image]) -> None:
    """A round ball stretched to a square has h/w = original width/height: the session's (or the
    image's own) median over well-sized balls, snapped to a usual aspect (as dataset.ts)."""
    def ratios(im: Image, min_px: float):
        return [h / w for c, _, _, w, h in im.boxes if c == "ball" and math.sqrt(w * h) * IMAGE_SIZE >= min_px]
    by_session: dict[str, list[float]] = {}
    for im in images:
        by_session.setdefault(im.session, []).extend(ratios(im, 14))
    for im in images:
        s, own = by_session[im.session], ratios(im, 20)
        if len(s) >= 3:
            im.aspect = _snap(sorted(s)[len(s) >> 1])
        elif own:
            im.aspect = _snap(sorted(own)[len(own) >> 1])


def load_dataset(directory: str = DATASET_DIR) -> list[Image]:
    images = []
    with open(os.path.join(directory, "manifest.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            label = os.path.join(directory, os.path.splitext(r["image"].replace("images/", "labels/", 1))[0] + ".txt")
            boxes = []
            if os.path.exists(label):
                for row in open(label):
                    p = row.split()
                    if len(p) == 5 and p[0] in CLASS_OF:
                        boxes.append((CLASS_OF[p[0]], *map(float, p[1:])))
            images.append(Image(os.path.join(directory, r["image"]), r["split"], r["source"], r["session"], bool(r.get("rim_exhaustive")), bool(r.get("ball_labelled")), boxes))
    _estimate_aspects(images)
    return images


def ring_of(cx: float, cy: float, w: float, h: float):
    """The rim's ring, not the rim+net box the labels draw (as models/heads/train.ts ringOf)."""
    ring_h = min(h, 0.3 * w)
    return cx, cy - h / 2 + ring_h / 2, w, ring_h


def read_rgb(file: str) -> np.ndarray:
    """A still or frame as the stretched IMAGE_SIZE×IMAGE_SIZE RGB image the labels are normalised to."""
    return read_rgb_at(file, IMAGE_SIZE)


@dataclass
class Placed:
    """Objects on a composed canvas, in canvas pixels, and where each class's loss counts."""
    rgb: np.ndarray
    boxes: list = field(default_factory=list)  # (cls, cx, cy, w, h); rims already as rings
    rim_mask: np.ndarray | None = None  # canvas-size 0/1: rim negatives count here
    ball_mask: np.ndarray | None = None


def compose(tiles: list[Image], canvas: int, k: int, rng: np.random.Generator, scale_range=(0.7, 1.0), cache=None, rgbs=None) -> Placed:
    """Lays images on a gray canvas: one (original aspect restored, scaled and placed at random) or
    a k×k mosaic of shrunken ones (smaller rims and balls, as in real footage). `rgbs[i]`, when
    given, is tile i's pixels (a crop made by crop_image) instead of its file's."""
    rgb = np.full((canvas, canvas, 3), 114, np.uint8)
    rim_mask = np.ones((canvas, canvas), np.float32)
    ball_mask = np.ones((canvas, canvas), np.float32)
    out = Placed(rgb, [], rim_mask, ball_mask)
    cell = canvas / k
    for i, im in enumerate(tiles):
        jitter = rng.uniform(*scale_range)
        w = max(8, int(round((cell if im.aspect >= 1 else cell * im.aspect) * jitter)))
        h = max(8, int(round((cell / im.aspect if im.aspect >= 1 else cell) * jitter)))
        w, h = min(w, int(cell)), min(h, int(cell))  # rounding must not spill into the next cell
        x0 = int((i % k) * cell + rng.uniform(0, cell - w))
        y0 = int((i // k) * cell + rng.uniform(0, cell - h))
        src = rgbs[i] if rgbs is not None else cache(im.file) if cache else read_rgb(im.file)
        content = cv2.resize(src, (w, h), interpolation=cv2.INTER_AREA)
        flip = rng.random() < 0.5
        if flip:
            content = content[:, ::-1]
        rgb[y0:y0 + h, x0:x0 + w] = content
        if not im.rim_exhaustive:
            rim_mask[y0:y0 + h, x0:x0 + w] = 0
        if not im.ball_labelled:
            ball_mask[y0:y0 + h, x0:x0 + w] = 0
        for c, cx, cy, bw, bh in im.boxes:
            cx = 1 - cx if flip else cx
            box = (x0 + cx * w, y0 + cy * h, bw * w, bh * h)
            if c == "rim":
                box = ring_of(*box)
            out.boxes.append((c, *box))
        for cx, cy, bw, bh in im.ignore:
            cx = 1 - cx if flip else cx
            ax, bx = int(max(x0, x0 + (cx - bw / 2) * w)), int(min(x0 + w, x0 + (cx + bw / 2) * w + 1))
            ay, by = int(max(y0, y0 + (cy - bh / 2) * h)), int(min(y0 + h, y0 + (cy + bh / 2) * h + 1))
            rim_mask[ay:by, ax:bx] = 0
            ball_mask[ay:by, ax:bx] = 0
    return out


def crop_image(im: Image, rgb: np.ndarray, x0: float, y0: float, x1: float, y1: float):
    """The part [x0, x1] × [y0, y1] (0..1 of the image) as an Image of its own and its pixels (from
    the stretched `rgb`): boxes whose centre lies inside are kept (clipped to the crop, as the labels
    box what is visible); the others that overlap it are ignored regions, not negatives."""
    H, W = rgb.shape[:2]
    cw, ch = x1 - x0, y1 - y0
    boxes, ignore = [], []
    for c, cx, cy, bw, bh in im.boxes:
        bx0, by0 = max(x0, cx - bw / 2), max(y0, cy - bh / 2)
        bx1, by1 = min(x1, cx + bw / 2), min(y1, cy + bh / 2)
        if bx1 <= bx0 or by1 <= by0:
            continue
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            boxes.append((c, ((bx0 + bx1) / 2 - x0) / cw, ((by0 + by1) / 2 - y0) / ch, (bx1 - bx0) / cw, (by1 - by0) / ch))
        else:
            ignore.append((((bx0 + bx1) / 2 - x0) / cw, ((by0 + by1) / 2 - y0) / ch, (bx1 - bx0) / cw, (by1 - by0) / ch))
    pixels = rgb[int(round(y0 * H)):max(int(round(y0 * H)) + 1, int(round(y1 * H))), int(round(x0 * W)):max(int(round(x0 * W)) + 1, int(round(x1 * W)))]
    return Image(im.file, im.split, im.source, im.session, im.rim_exhaustive, im.ball_labelled, boxes, im.aspect * cw / ch, ignore), pixels


def sigma_cells(w: float, h: float) -> float:
    """Gaussian radius in grid cells (as the heads: σ = max(0.7, 0.12·√area))."""
    return max(0.7, 0.12 * math.sqrt(max(w * h, 1e-6)) / STRIDE)


def heatmap(objects, grid_w: int, grid_h: int) -> np.ndarray:
    t = np.zeros((grid_h, grid_w), np.float32)
    ys, xs = np.mgrid[0:grid_h, 0:grid_w]
    for _, cx, cy, w, h in objects:
        gx = min(grid_w - 1, max(0, round(cx / STRIDE)))
        gy = min(grid_h - 1, max(0, round(cy / STRIDE)))
        s = sigma_cells(w, h)
        g = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * s * s))
        g[gy, gx] = 1
        np.maximum(t, g, out=t)
    return t


def letterbox(im: Image, size: int, rgb: np.ndarray | None = None):
    """One image with its original aspect restored, centred on a size×size gray canvas (as the
    heads' evaluation): returns the canvas and the boxes in canvas pixels (rims as rings)."""
    cell = size
    w = int(round(cell if im.aspect >= 1 else cell * im.aspect))
    h = int(round(cell / im.aspect if im.aspect >= 1 else cell))
    x0, y0 = (size - w) // 2, (size - h) // 2
    canvas = np.full((size, size, 3), 114, np.uint8)
    canvas[y0:y0 + h, x0:x0 + w] = cv2.resize(rgb if rgb is not None else read_rgb(im.file), (w, h), interpolation=cv2.INTER_AREA)
    boxes = []
    for c, cx, cy, bw, bh in im.boxes:
        box = (x0 + cx * w, y0 + cy * h, bw * w, bh * h)
        boxes.append((c, *(ring_of(*box) if c == "rim" else box)))
    return canvas, boxes


def ffmpeg_path() -> str:
    """$FFMPEG, else the npm build's @ffmpeg-installer binary (what the runner uses), else the system's."""
    here = os.path.dirname(os.path.abspath(__file__))
    for p in (os.environ.get("FFMPEG"), os.path.join(here, "../../node_modules/@ffmpeg-installer/linux-x64/ffmpeg"), shutil.which("ffmpeg")):
        if p and os.path.exists(p):
            return os.path.normpath(p)
    raise RuntimeError("no ffmpeg: run npm ci (node_modules/@ffmpeg-installer) or set FFMPEG")


def tuning_clips(clips_dir: str = REALCLIPS_DIR) -> list[dict]:
    """The manifest's clips whose split is `tuning`: the only clips any training frame may come from."""
    manifest = json.load(open(os.path.join(clips_dir, "manifest.json")))
    return [c for c in manifest["clips"] if c.get("split") == "tuning"]


def extract_frames(clip_file: str, frames: list[int], cache_dir: str, clips_dir: str = REALCLIPS_DIR) -> dict[int, str]:
    """Decodes frames (0-based decode order, as ffmpeg's `n`) of a clip to PNGs in cache_dir, once; →
    {frame: path}. One ffmpeg pass per clip selects them all (the clips are short)."""
    stem = os.path.splitext(os.path.basename(clip_file))[0]
    paths = {f: os.path.join(cache_dir, f"{stem}.{f:05d}.png") for f in frames}
    todo = sorted(f for f, p in paths.items() if not os.path.exists(p))
    if todo:
        os.makedirs(cache_dir, exist_ok=True)
        tmp = os.path.join(cache_dir, f".{stem}.{os.getpid()}")
        os.makedirs(tmp, exist_ok=True)
        select = "+".join(f"eq(n\\,{f})" for f in todo)
        subprocess.run([ffmpeg_path(), "-v", "error", "-nostdin", "-i", os.path.join(clips_dir, clip_file), "-vf", f"select={select}", "-vsync", "0", os.path.join(tmp, "%05d.png")], check=True)
        got = sorted(os.listdir(tmp))
        if len(got) != len(todo):
            raise RuntimeError(f"{clip_file}: asked ffmpeg for frames {todo}, got {len(got)} images")
        for f, name in zip(todo, got):
            os.replace(os.path.join(tmp, name), paths[f])
        os.rmdir(tmp)
    return paths


def load_realclip_frames(labels_path: str = REALCLIP_LABELS, clips_dir: str = REALCLIPS_DIR, cache_dir: str = REALCLIP_CACHE) -> list[Image]:
    """The labelled tuning-clip frames (models/train/realclip-labels.json) as Images like the dataset's
    (boxes normalised to the frame, `aspect` the frame's own), the frames extracted with ffmpeg into
    cache_dir. Refuses a label on any clip whose manifest split is not `tuning`: held-out clips are
    out by construction. `split` is the label file's per-clip train/val assignment; `source` is
    `realclips/<source prefix>`, `session` the clip."""
    doc = json.load(open(labels_path))
    tuning = {c["file"]: c for c in tuning_clips(clips_dir)}
    refused = sorted({fr["clip"] for fr in doc["frames"] if fr["clip"] not in tuning})
    if refused:
        raise ValueError(f"{labels_path}: labels on clips that are not tuning clips (held out or unknown): {refused}")
    by_clip: dict[str, list[dict]] = {}
    for fr in doc["frames"]:
        by_clip.setdefault(fr["clip"], []).append(fr)
    val_clips = set(doc.get("val_clips", []))
    images = []
    for clip, frs in sorted(by_clip.items()):
        c = tuning[clip]
        paths = extract_frames(clip, [fr["frame"] for fr in frs], cache_dir, clips_dir)
        for fr in frs:
            if (fr["width"], fr["height"]) != (c["width"], c["height"]):
                raise ValueError(f"{clip} frame {fr['frame']}: labelled at {fr['width']}x{fr['height']}, the clip is {c['width']}x{c['height']}")
            W, H = fr["width"], fr["height"]

            def norm(b):
                x1, y1, x2, y2 = b
                return ((x1 + x2) / 2 / W, (y1 + y2) / 2 / H, (x2 - x1) / W, (y2 - y1) / H)
            boxes = [("ball", *norm(b)) for b in fr["balls"]] + [("rim", *norm(b)) for b in fr["rims"]]
            images.append(Image(paths[fr["frame"]], "val" if clip in val_clips else "train", "realclips/" + os.path.basename(clip).split("_")[0], clip,
                                bool(fr["rim_exhaustive"]), bool(fr["ball_labelled"]), boxes, aspect=W / H))
    return images


def load_pack(pack_dir: str) -> tuple[list[Image], list[Image]]:
    """The images models/train/pack.py wrote (→ dataset train stills at the 320 canvas size, tuning-clip
    train frames at the stretched 640×640), their `file` the packed WebP's path."""
    doc = json.load(open(os.path.join(pack_dir, "images.json")))
    stills, frames = [], []
    for r in doc["images"]:
        kind = r.pop("kind")
        r["file"] = os.path.join(pack_dir, r["file"])
        r["boxes"] = [tuple(b) for b in r["boxes"]]
        r["ignore"] = [tuple(b) for b in r["ignore"]]
        (stills if kind == "dataset" else frames).append(Image(**r))
    return stills, frames


def read_rgb_at(file: str, size: int) -> np.ndarray:
    """An image as RGB at size×size (a packed image is already at its size: no resampling then)."""
    bgr = cv2.imread(file, cv2.IMREAD_COLOR)
    if bgr.shape[:2] != (size, size):
        bgr = cv2.resize(bgr, (size, size), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
