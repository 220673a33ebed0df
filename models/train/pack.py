"""Packs the training images of models/train/train.py into one small folder, for a training run on
another machine (a GPU host reached through the workplace's device tool, whose working tree travels
with a 64 MiB limit: the dataset's 187 MB of stills and the clips do not fit).

  VENV/bin/python models/train/pack.py --out models/train/runs/pack [--quality 80]

Writes, under --out (gitignored like every run folder; never committed: the stills are CC BY 4.0 but
the clips' frames have no licence, and the pack exists only for the run):
  * the dataset's TRAIN split as train.py sees it: each still read as the stretched 640×640 image
    and shrunk to the 320×320 canvas size with INTER_AREA (train.py's `cached` does exactly that);
  * the labelled frames of the TUNING clips' train clips (models/train/realclip-labels.json;
    `load_realclip_frames` refuses any other clip) at the stretched 640×640 train.py crops from;
  * images.json: every image's labels (boxes, flags, source, session, aspect) and its file.
Images are WebP at --quality (80: about 17 kB a still, mean |error| 2.6 of 255, below the
training's own brightness jitter of ±30 and JPEG/blur augmentations); train.py --pack DIR then reads
these instead of the dataset and ffmpeg. Val and test images are not packed: choosing and
measuring stay on this machine (evaluate.py, realclips_ball.py) with the original files.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys

import cv2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import load_dataset, load_realclip_frames, read_rgb  # noqa: E402

CANVAS = 320


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--out", default="models/train/runs/pack")
    p.add_argument("--quality", type=int, default=80, help="WebP quality (0–100)")
    args = p.parse_args()
    os.makedirs(os.path.join(args.out, "img"), exist_ok=True)
    records = []

    def put(im, rgb, kind: str, index: int) -> None:
        name = f"img/{kind}-{index:05d}.webp"
        ok, buf = cv2.imencode(".webp", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_WEBP_QUALITY, args.quality])
        if not ok:
            raise RuntimeError(f"could not encode {im.file}")
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(buf.tobytes())
        records.append({**dataclasses.asdict(im), "file": name, "kind": kind})

    stills = [im for im in load_dataset() if im.split == "train"]
    for i, im in enumerate(stills):
        put(im, cv2.resize(read_rgb(im.file), (CANVAS, CANVAS), interpolation=cv2.INTER_AREA), "dataset", i)
    frames = [im for im in load_realclip_frames() if im.split == "train"]
    for i, im in enumerate(frames):
        put(im, read_rgb(im.file), "realclip", i)
    with open(os.path.join(args.out, "images.json"), "w") as f:
        json.dump({"quality": args.quality, "canvas": CANVAS, "images": records}, f)
    size = sum(os.path.getsize(os.path.join(args.out, r["file"])) for r in records)
    print(f"{args.out}: {len(stills)} dataset stills, {len(frames)} tuning-clip frames, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
