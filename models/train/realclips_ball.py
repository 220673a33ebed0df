"""Measures (never tunes) a CenterNet-contract ONNX model on the HELD-OUT clips of ../shared/realclips:
the share of flight frames in which the `ball` output fires, and whether the first frame's top `rim`
peak is the hoop. Frames are read at run time; none is written anywhere.

  VENV/bin/python models/train/realclips_ball.py MODEL.onnx [MODEL2.onnx …] [--split held_out] [--json out.json]

Flight frames: every frame from release_s (result_s − 0.7 s when release_s is null) to result_s.
Each frame is letterboxed whole (aspect kept, gray 114) to 512×512. "any": at least one `ball` peak
(3×3 local maximum) ≥ the threshold; "moving": at least one such peak that is not at a place that
fires in ≥ 40 % of the clip's flight frames (radius 2 % of the frame's long side; this removes
static false positives such as logos and balls at rest, as in the real-footage spike); "peaks per
frame" (all peaks ≥ the threshold) tells how much of "any" false positives can explain. There is
no per-frame ball truth: "moving" is a proxy. Rim: on the first frame of each clip with a
hoop_box, the top `rim` peak is right when it lies within one hoop_box width of its centre.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evaluate import Model, peaks  # noqa: E402

CLIPS_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), "../../../shared/realclips"))
SIZE = 512


def letterbox_rgb(rgb: np.ndarray, size: int = SIZE):
    """A whole frame letterboxed to size×size on gray (as the runner's scan): canvas, scale, x0, y0."""
    h, w = rgb.shape[:2]
    s = size / max(w, h)
    nw, nh = int(round(w * s)), int(round(h * s))
    x0, y0 = (size - nw) // 2, (size - nh) // 2
    canvas = np.full((size, size, 3), 114, np.uint8)
    canvas[y0:y0 + nh, x0:x0 + nw] = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_AREA)
    return canvas, s, x0, y0


def letterbox_frame(bgr: np.ndarray):
    return letterbox_rgb(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="+")
    p.add_argument("--split", default="held_out")
    p.add_argument("--thresholds", default="0.3,0.5")
    p.add_argument("--json", default="")
    a = p.parse_args()
    thresholds = [float(t) for t in a.thresholds.split(",")]
    manifest = json.load(open(os.path.join(CLIPS_DIR, "manifest.json")))
    clips = [c for c in manifest["clips"] if c.get("split") == a.split]
    models = [Model(m) for m in a.models]
    results = {m: {"clips": {}, "rim_first_frame": [0, 0]} for m in a.models}
    for clip in clips:
        windows = [((s["release_s"] if s["release_s"] is not None else s["result_s"] - 0.7), s["result_s"]) for s in clip["shots"]]
        cap = cv2.VideoCapture(os.path.join(CLIPS_DIR, clip["file"]))
        fps = cap.get(cv2.CAP_PROP_FPS) or clip["fps"]
        frames, first, i = [], None, 0
        while True:
            ok, bgr = cap.read()
            if not ok:
                break
            t = i / fps
            if i == 0:
                first = bgr
            if any(t0 <= t <= t1 for t0, t1 in windows):
                frames.append(bgr)
            i += 1
        cap.release()
        long_side = max(clip["width"], clip["height"])
        for path, model in zip(a.models, models):
            r = results[path]
            if clip.get("hoop_box") and first is not None:
                canvas, s, x0, y0 = letterbox_frame(first)
                top = peaks(model.run(canvas)["rim"], 0.0, 1)
                x1, y1, x2, y2 = clip["hoop_box"]
                if top:
                    _, px, py = top[0]
                    fx, fy = (px - x0) / s, (py - y0) / s
                    hit = ((fx - (x1 + x2) / 2) ** 2 + (fy - (y1 + y2) / 2) ** 2) ** 0.5 <= (x2 - x1)
                    r["rim_first_frame"][0] += int(hit)
                r["rim_first_frame"][1] += 1
            if not frames:
                continue
            hits_per_thr = {thr: [] for thr in thresholds}
            for bgr in frames:
                canvas, s, x0, y0 = letterbox_frame(bgr)
                ps = peaks(model.run(canvas)["ball"], min(thresholds), 50)
                for thr in thresholds:
                    hits_per_thr[thr].append([((x - x0) / s, (y - y0) / s) for sc, x, y in ps if sc >= thr])
            row = {"flight_frames": len(frames)}
            for thr, hits in hits_per_thr.items():
                radius = 0.02 * long_side

                def fires_often(pt):
                    n = sum(1 for hs in hits if any((hx - pt[0]) ** 2 + (hy - pt[1]) ** 2 <= radius * radius for hx, hy in hs))
                    return n >= 0.4 * len(hits)
                any_n = sum(1 for hs in hits if hs)
                moving_n = sum(1 for hs in hits if any(not fires_often(pt) for pt in hs))
                row[str(thr)] = {"any": any_n, "moving": moving_n, "peaks": sum(len(hs) for hs in hits)}
            r["clips"][clip["file"]] = row
            print(f"{os.path.basename(path):28s} {os.path.basename(clip['file']):44s} {len(frames):4d} frames  " + "  ".join(f"@{thr}: any {row[str(thr)]['any']} moving {row[str(thr)]['moving']}" for thr in thresholds), flush=True)
    for path in a.models:
        r = results[path]
        total = sum(c["flight_frames"] for c in r["clips"].values())
        r["total"] = {"flight_frames": total}
        for thr in thresholds:
            any_n = sum(c[str(thr)]["any"] for c in r["clips"].values())
            mov_n = sum(c[str(thr)]["moving"] for c in r["clips"].values())
            peaks_n = sum(c[str(thr)]["peaks"] for c in r["clips"].values())
            r["total"][str(thr)] = {"any": round(any_n / max(total, 1), 3), "moving": round(mov_n / max(total, 1), 3), "peaks_per_frame": round(peaks_n / max(total, 1), 2)}
        print(f"{os.path.basename(path)}: {total} flight frames; " + "; ".join(f"@{thr} any {r['total'][str(thr)]['any']} moving {r['total'][str(thr)]['moving']} peaks/frame {r['total'][str(thr)]['peaks_per_frame']}" for thr in thresholds) + f"; rim first frame {r['rim_first_frame'][0]}/{r['rim_first_frame'][1]}", flush=True)
    if a.json:
        json.dump(results, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
