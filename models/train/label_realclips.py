"""Human-in-the-loop labelling of frames from the TUNING clips of ../shared/realclips (never a held_out
clip: data.tuning_clips refuses them). A developer tool; it wrote models/train/realclip-labels.json.

  VENV/bin/python models/train/label_realclips.py propose --out /tmp/rl [--model models/basketball-centernet.onnx]
      chooses the frames (choose_frames), extracts them with ffmpeg into --out, runs the model and
      writes --out/proposals.json and contact sheets --out/sheet-NNN.png: each frame with numbered
      candidate boxes (B* = `ball` peaks with COCO `wh` as the size, R* = `rim` peaks with `rim_size`,
      H = the manifest's hoop_box for a fixed camera) and 4× zooms of each with pixel rulers.
  VENV/bin/python models/train/label_realclips.py build --out /tmp/rl --decisions /tmp/rl/decisions.txt
      merges a person's decisions with the proposals into models/train/realclip-labels.json.

Decisions, one line per frame id (frames not listed are skipped, i.e. not labelled):
  f012 ball=B1 rim=R1            accept candidates as they are
  f013 ball=120,40,134,54 rim=R2 a box drawn by hand (x1,y1,x2,y2 in clip pixels) or a candidate
  f014 ball= rim=H               no ball in the frame; `ball=?` = ball not labelled (unsure: hidden,
                                 blurred) → ball_labelled false; `rim=?` likewise → rim_exhaustive false;
  f015 ball=? rim=~R2            `~`: these boxes are right but there may be others (far hoops one
                                 cannot tell) → the boxes are positives, rim_exhaustive false
Several boxes: ball=B1;B2. Rims are rim+net boxes as the dataset's (ring top to net bottom):
candidate R*/H boxes are rings; `R1+net` extends a ring box down by 0.8·width for the net.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import REALCLIP_LABELS, extract_frames, tuning_clips  # noqa: E402
from realclips_ball import letterbox_rgb as letterbox  # noqa: E402

PER_SOURCE = {  # frames wanted per source (prefix of the clip file name); sujay_rim_*: a sample of clips
    "chonyy": 40, "jbardelli": 24, "lreithmayr": 10, "senatopal": 10, "ashwin": 6,
    "brettfazio": 14, "sujay": 44, "aggie": 12, "dbs29": 6,
}
SUJAY_CLIPS = 22  # of 42, two frames each


def source_of(clip_file: str) -> str:
    return os.path.basename(clip_file).split("_")[0]


def choose_frames(clips: list[dict]) -> list[tuple[dict, int]]:
    """Frames per clip: during each labelled flight (release → result, the ball near the rim at the
    end), one just after the result (ball under the rim / in the net) and one away from any flight
    (the ball in hands or out of the picture). Deterministic; sources capped by PER_SOURCE."""
    out = []
    by_source: dict[str, list[dict]] = {}
    for c in clips:
        by_source.setdefault(source_of(c["file"]), []).append(c)
    for src, cs in sorted(by_source.items()):
        if src not in PER_SOURCE:
            continue
        cs = sorted(cs, key=lambda c: c["file"])
        if src == "sujay":  # a fair sample: every other clip by name, makes and misses alike
            cs = [c for c in cs if int(hashlib.sha1(c["file"].encode()).hexdigest(), 16) % 2 == 0][:SUJAY_CLIPS]
        want = PER_SOURCE[src]
        per_clip = max(1, round(want / len(cs)))
        for c in cs:
            fps, n = c["fps"], int(math.floor(c["duration_s"] * c["fps"])) - 1
            times = []
            for s in c["shots"]:
                t0 = s["release_s"] if s["release_s"] is not None else s["result_s"] - 0.7
                t1 = s["result_s"]
                times += [t0 + (t1 - t0) * f for f in (0.3, 0.65, 0.95)] + [t1 + 0.25]
            flights = [((s["release_s"] if s["release_s"] is not None else s["result_s"] - 0.7) - 0.5, s["result_s"] + 0.8) for s in c["shots"]]
            quiet = [t for t in np.arange(0.2, c["duration_s"] - 0.1, 0.5) if not any(a <= t <= b for a, b in flights)]
            if quiet:
                times.append(float(quiet[len(quiet) // 2]))
            if not c["shots"]:
                times = [float(t) for t in np.linspace(0.2, c["duration_s"] - 0.2, 5)]
            frames = sorted({min(n, max(0, int(round(t * fps)))) for t in times})
            if len(frames) > per_clip:  # keep an even spread
                frames = [frames[int(round(i * (len(frames) - 1) / (per_clip - 1)))] for i in range(per_clip)] if per_clip > 1 else [frames[len(frames) // 2]]
                frames = sorted(set(frames))
            out += [(c, f) for f in frames]
    return out


def propose(model, rgb: np.ndarray, hoop_box):
    from evaluate import peaks
    canvas, s, x0, y0 = letterbox(rgb)
    heat, wh, ball, rim, rim_size = model.session.run(["heatmap", "wh", "ball", "rim", "rim_size"], {"images": canvas[None].astype(np.float32)})
    cands = []
    for i, (sc, x, y) in enumerate(peaks(ball[0, 0], 0.12, 5)):
        gx, gy = int(x / 4), int(y / 4)
        bw = max(6.0, float(wh[0, 0, gy, gx]), float(wh[0, 1, gy, gx])) / s
        cx, cy = (x - x0) / s, (y - y0) / s
        cands.append({"id": f"B{i + 1}", "score": round(sc, 3), "box": [cx - bw / 2, cy - bw / 2, cx + bw / 2, cy + bw / 2]})
    for i, (sc, x, y) in enumerate(peaks(rim[0, 0], 0.12, 3)):
        gx, gy = int(x / 4), int(y / 4)
        rw, rh = 4 * math.exp(float(rim_size[0, 0, gy, gx])) / s, 4 * math.exp(float(rim_size[0, 1, gy, gx])) / s
        cx, cy = (x - x0) / s, (y - y0) / s
        cands.append({"id": f"R{i + 1}", "score": round(sc, 3), "box": [cx - rw / 2, cy - rh / 2, cx + rw / 2, cy + rh / 2]})
    if hoop_box:
        cands.append({"id": "H", "score": None, "box": list(map(float, hoop_box))})
    for c in cands:
        c["box"] = [round(v, 1) for v in c["box"]]
    return cands


def render(fid: str, rgb: np.ndarray, cands: list[dict], clip: dict, frame: int) -> np.ndarray:
    """One frame at ≤ 900×560 with numbered boxes, then a row of 4× zooms (128 px) with pixel rulers."""
    h, w = rgb.shape[:2]
    s = min(900 / w, 560 / h)
    view = cv2.resize(rgb, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA).copy()
    colors = {"B": (255, 140, 0), "R": (0, 220, 255), "H": (255, 0, 255)}
    for c in cands:
        x1, y1, x2, y2 = [v * s for v in c["box"]]
        col = colors[c["id"][0]]
        cv2.rectangle(view, (int(x1), int(y1)), (int(x2), int(y2)), col, 1)
        cv2.putText(view, c["id"], (int(x1), max(10, int(y1) - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.4, col, 1)
    zooms = []
    for c in cands:
        x1, y1, x2, y2 = c["box"]
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        half = max(16.0, 1.5 * max(x2 - x1, y2 - y1))
        ax, ay = int(max(0, cx - half)), int(max(0, cy - half))
        bx, by = int(min(w, cx + half)), int(min(h, cy + half))
        if bx - ax < 4 or by - ay < 4:
            continue
        crop = rgb[ay:by, ax:bx]
        z = 160 / max(bx - ax, by - ay)
        crop = cv2.resize(crop, (max(1, int((bx - ax) * z)), max(1, int((by - ay) * z))), interpolation=cv2.INTER_NEAREST if z > 3 else cv2.INTER_LINEAR).copy()
        col = colors[c["id"][0]]
        cv2.rectangle(crop, (int((x1 - ax) * z), int((y1 - ay) * z)), (int((x2 - ax) * z), int((y2 - ay) * z)), col, 1)
        tile = np.full((200, 170, 3), 30, np.uint8)
        tile[20:20 + crop.shape[0], 5:5 + crop.shape[1]] = crop[:180, :165]
        cv2.putText(tile, f"{c['id']} {c['score'] if c['score'] is not None else ''}", (3, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.4, col, 1)
        cv2.putText(tile, f"{ax},{ay}", (3, 197), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (255, 255, 255), 1)
        cv2.putText(tile, f"{bx},{by}", (100, 197), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (255, 255, 255), 1)
        zooms.append(tile)
    width = max(view.shape[1], 170 * min(len(zooms), 6))
    header = np.full((18, width, 3), 0, np.uint8)
    cv2.putText(header, f"{fid} {os.path.basename(clip['file'])} frame {frame} ({w}x{h}) grid 100px", (3, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1)
    # A 100-pixel grid (clip pixels) in faint lines, to read positions for hand-drawn boxes.
    for gx in range(100, w, 100):
        view[:, int(gx * s)] = view[:, int(gx * s)] // 2 + 60
    for gy in range(100, h, 100):
        view[int(gy * s), :] = view[int(gy * s), :] // 2 + 60
    rows = [header, np.pad(view, ((0, 0), (0, width - view.shape[1]), (0, 0)))]
    for i in range(0, len(zooms), 6):
        row = np.concatenate(zooms[i:i + 6], axis=1)
        rows.append(np.pad(row, ((0, 0), (0, width - row.shape[1]), (0, 0))))
    return np.concatenate(rows, axis=0)


def cmd_propose(a):
    from evaluate import Model
    model = Model(a.model)
    clips = tuning_clips()
    chosen = choose_frames(clips)
    os.makedirs(a.out, exist_ok=True)
    by_clip: dict[str, list[int]] = {}
    for c, f in chosen:
        by_clip.setdefault(c["file"], []).append(f)
    props, panels = [], []
    clip_of = {c["file"]: c for c in clips}
    for n, (file, frames) in enumerate(sorted(by_clip.items())):
        paths = extract_frames(file, frames, a.out)
        for f in frames:
            rgb = cv2.cvtColor(cv2.imread(paths[f]), cv2.COLOR_BGR2RGB)
            clip = clip_of[file]
            cands = propose(model, rgb, clip.get("hoop_box") if clip.get("camera") == "fixed" else None)
            fid = f"f{len(props):03d}"
            props.append({"id": fid, "clip": file, "frame": f, "fps": clip["fps"], "width": rgb.shape[1], "height": rgb.shape[0], "candidates": cands})
            panels.append(render(fid, rgb, cands, clip, f))
    json.dump({"model": a.model, "frames": props}, open(os.path.join(a.out, "proposals.json"), "w"), indent=1)
    for i in range(0, len(panels), a.per_sheet):
        group = panels[i:i + a.per_sheet]
        width = max(p.shape[1] for p in group)
        sheet = np.concatenate([np.pad(p, ((0, 6), (0, width - p.shape[1]), (0, 0))) for p in group], axis=0)
        cv2.imwrite(os.path.join(a.out, f"sheet-{i // a.per_sheet:03d}.png"), cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR))
    from collections import Counter
    print(f"{len(props)} frames from {len(by_clip)} clips:", dict(Counter(source_of(p["clip"]) for p in props)))


def parse_boxes(spec: str, cands: dict):
    """→ (boxes, how, exhaustive); '?' = not labelled; a leading '~' = these boxes, maybe not all."""
    if spec == "?":
        return [], False
    exhaustive = not spec.startswith("~")
    spec = spec.lstrip("~")
    boxes = []
    for part in filter(None, spec.split(";")):
        net = part.endswith("+net")
        key = part[:-4] if net else part
        if key in cands:
            x1, y1, x2, y2 = cands[key]["box"]
            how = "accepted " + key
        else:
            x1, y1, x2, y2 = map(float, key.split(","))
            how = "drawn"
        if net:
            y2 = y1 + max(y2 - y1, 0.8 * (x2 - x1))
            how += "+net"
        boxes.append(([round(x1), round(y1), round(x2), round(y2)], how))
    return boxes, exhaustive


def cmd_build(a):
    props = json.load(open(os.path.join(a.out, "proposals.json")))
    by_id = {p["id"]: p for p in props["frames"]}
    frames = []
    for line in open(a.decisions):
        line = line.split("#")[0].strip()
        if not line:
            continue
        fid, *fields = line.split()
        p = by_id[fid]
        cands = {c["id"]: c for c in p["candidates"]}
        kv = dict(f.split("=", 1) for f in fields)
        (balls, ball_labelled), (rims, rim_exhaustive) = parse_boxes(kv.get("ball", "?"), cands), parse_boxes(kv.get("rim", "?"), cands)
        # Boxes cover what is visible: clipped to the frame (a ball leaving the picture keeps its visible part).
        clip_box = lambda b: [max(0, min(p["width"], b[0])), max(0, min(p["height"], b[1])), max(0, min(p["width"], b[2])), max(0, min(p["height"], b[3]))]  # noqa: E731
        balls, rims = [(clip_box(b), h) for b, h in balls], [(clip_box(b), h) for b, h in rims]
        frames.append({
            "clip": p["clip"], "frame": p["frame"], "time_s": round(p["frame"] / p["fps"], 3), "width": p["width"], "height": p["height"],
            "ball_labelled": ball_labelled, "rim_exhaustive": rim_exhaustive,
            "balls": [b for b, _ in balls], "rims": [b for b, _ in rims],
            "how": {"balls": [h for _, h in balls], "rims": [h for _, h in rims]},
        })
    import hashlib as _h
    old = json.load(open(REALCLIP_LABELS)) if os.path.exists(REALCLIP_LABELS) else {}
    doc = {
        "description": "Ball and rim boxes on frames of the TUNING clips of ../shared/realclips (never a held_out clip; "
                       "data.load_realclip_frames refuses any other). Frames are not stored: they are decoded at run time "
                       "with ffmpeg (frame = 0-based decode index, as ffmpeg's select n; time_s = frame / manifest fps).",
        "made_by": "models/train/label_realclips.py propose/build: candidates proposed by the model below (top `ball` peaks "
                    "sized by COCO `wh`, top `rim` peaks sized by `rim_size`) and by the manifest's hoop_box, drawn on each "
                    "frame; a person looked at every frame (zoomed where needed) and accepted, corrected or rejected each "
                    "candidate and drew objects the model missed. `how` says which, per box.",
        "proposer": {"model": props["model"], "sha256": _h.sha256(open(props["model"], "rb").read()).hexdigest()},
        "conventions": {
            "boxes": "[x1, y1, x2, y2] in clip pixels (the frame as decoded, width x height)",
            "balls": "every ball visible in the frame, also partly hidden or cut by the frame edge (the visible part)",
            "ball_labelled": "false: a ball may be in the frame but could not be told (hidden in hands, blurred, tiny) or not every ball was boxed; the frame then teaches nothing about ball negatives",
            "rims": "rim + net box as the dataset's (ring's left/right, top of the ring, bottom of the net); loaders take the ring as its top 0.3 x width (data.ring_of)",
            "rim_exhaustive": "false: another hoop may be in the frame (far hoops one cannot tell)",
            "val_clips": "clips whose frames are never trained on (models/train/evaluate.py --data realclips --split val)",
        },
        "val_clips": old.get("val_clips", []),
        "frames": frames,
    }
    with open(REALCLIP_LABELS, "w") as f:  # one frame per line: reviewable diffs
        head = {k: v for k, v in doc.items() if k != "frames"}
        f.write(json.dumps(head, indent=1, ensure_ascii=False)[:-2] + ',\n "frames": [\n')
        f.write(",\n".join("  " + json.dumps(fr, separators=(",", ":")) for fr in frames) + "\n ]\n}\n")
    print(f"{len(frames)} frames → {REALCLIP_LABELS}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("propose")
    pp.add_argument("--out", default="/tmp/rl")
    pp.add_argument("--model", default="models/basketball-centernet.onnx")
    pp.add_argument("--per-sheet", type=int, default=2)
    pb = sub.add_parser("build")
    pb.add_argument("--out", default="/tmp/rl")
    pb.add_argument("--decisions", default="/tmp/rl/decisions.txt")
    a = p.parse_args()
    cmd_propose(a) if a.cmd == "propose" else cmd_build(a)
