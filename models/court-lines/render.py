"""Synthetic court pictures with their painted-line masks, for training a learned line mask.

A random camera over a floor painted to a random rule book; the label is where a painted line
covers the pixel and nothing stands in front of it.
"""
import math
import os
import re
import numpy as np
from PIL import Image, ImageFilter
import io

# The rule books' dimensions are read from the one table both sides use (contract/court-types.ts), so
# the pictures are painted to the same courts the runner fits.
COURT_TYPES_TS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "contract", "court-types.ts")


def read_books(path=COURT_TYPES_TS):
    src = open(path).read()
    table = src[src.index("export const COURT_TEMPLATES"):]
    table = table[:table.index("\n};")]
    names = dict(width="width", halfLength="half", basketFromBaseline="basket", keyWidthBaseline="kb", keyWidthFreeThrow="kf",
                 freeThrowFromBaseline="ft", freeThrowCircleRadius="ftr", threeRadius="r3", threeCornerOffset="c3")
    books = {}
    for book, body in re.findall(r"\n  (\w+): \{(.*?)\n  \},", table, re.S):
        fields = dict(re.findall(r"(\w+): ([^,\n]+)", body))
        books[book] = {short: float(eval(fields[name], {"FT": 0.3048})) for name, short in names.items()}
    return books


BOOKS = read_books()


def seg_dist(X, Y, a, b):
    ax, ay = a; bx, by = b
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy
    t = np.clip(((X - ax) * dx + (Y - ay) * dy) / L2, 0, 1)
    return np.hypot(X - (ax + t * dx), Y - (ay + t * dy))


def arc_dist(X, Y, c, r, a0, a1):
    ang = np.arctan2(Y - c[1], X - c[0])
    inside = (ang >= a0) & (ang <= a1)
    d_arc = np.abs(np.hypot(X - c[0], Y - c[1]) - r)
    e0 = np.hypot(X - (c[0] + r * math.cos(a0)), Y - (c[1] + r * math.sin(a0)))
    e1 = np.hypot(X - (c[0] + r * math.cos(a1)), Y - (c[1] + r * math.sin(a1)))
    return np.where(inside, d_arc, np.minimum(e0, e1))


def end_line_dists(X, Y, bk):
    """Distances (m) to the lines of one end of the court (x from its baseline): the baseline, the key and the three-point line."""
    w, kb, kf, ft = bk["width"] / 2, bk["kb"] / 2, bk["kf"] / 2, bk["ft"]
    b, r, c = bk["basket"], bk["r3"], bk["c3"]
    xb = b + math.sqrt(max(r * r - c * c, 0))
    a = math.asin(min(1, c / r))
    return [
        seg_dist(X, Y, (0, -w), (0, w)),
        seg_dist(X, Y, (0, -kb), (ft, -kf)),
        seg_dist(X, Y, (0, kb), (ft, kf)),
        seg_dist(X, Y, (ft, -kf), (ft, kf)),
        seg_dist(X, Y, (0, -c), (xb, -c)),
        seg_dist(X, Y, (0, c), (xb, c)),
        arc_dist(X, Y, (b, 0), r, -a, a),
    ]


def court_line_dist(X, Y, bk):
    """Distance (m) from floor points to the nearest painted line of the court (x from the near baseline, y across)."""
    w, half, kb, ft = bk["width"] / 2, bk["half"], bk["kb"] / 2, bk["ft"]
    d = end_line_dists(X, Y, bk) + end_line_dists(2 * half - X, Y, bk)  # both ends, the far one mirrored
    d.append(seg_dist(X, Y, (0, -w), (half, -w)))  # sidelines to half court
    d.append(seg_dist(X, Y, (0, w), (half, w)))
    d.append(seg_dist(X, Y, (half, -w), (half, w)))  # half-court line
    d.append(arc_dist(X, Y, (ft, 0), bk["ftr"], -math.pi, math.pi))  # the near free-throw circle, drawn whole
    d.append(arc_dist(X, Y, (half, 0), 1.8, -math.pi, math.pi))  # centre circle
    for s in (-1, 1):  # the near lane's hash marks
        for xm in (2.1, 3.0, 3.9):
            d.append(seg_dist(X, Y, (xm, s * kb), (xm, s * (kb + 0.15))))
    return np.min(np.stack(d), axis=0)


def other_sport_lines(X, Y, rng):
    """A multi-sport floor: a few extra straight lines (volleyball, badminton), in floor metres."""
    n = rng.integers(1, 6)
    d = []
    for _ in range(n):
        if rng.random() < 0.5:
            x0 = rng.uniform(-1, 20); d.append(np.abs(X - x0) + np.where(np.abs(Y) < rng.uniform(3, 9), 0, 100))
        else:
            y0 = rng.uniform(-8, 8); d.append(np.abs(Y - y0) + np.where((X > rng.uniform(-2, 5)) & (X < rng.uniform(6, 25)), 0, 100))
    return np.min(np.stack(d), axis=0)


def rand_colour(rng, lo=0, hi=255):
    return rng.uniform(lo, hi, 3)


def floor_texture(X, Y, rng, kind):
    """RGB floor colour at floor points (m)."""
    H, W = X.shape
    if kind == "wood":
        base = np.array([rng.uniform(150, 225), rng.uniform(95, 165), rng.uniform(45, 110)])
        along = X if rng.random() < 0.5 else Y
        across = Y if along is X else X
        pw = rng.uniform(0.05, 0.09)
        plank = np.floor(across / pw)
        h = (np.sin(plank * 12.9898) * 43758.5453) % 1.0
        seg = np.floor((along + h * 3) / rng.uniform(1.0, 2.5))
        h2 = (np.sin(plank * 78.233 + seg * 37.719) * 43758.5453) % 1.0
        grain = np.sin(along * rng.uniform(8, 30) + h * 20 + np.sin(along * 3 + h2 * 6) * 2)
        shade = (h2 - 0.5) * rng.uniform(10, 45) + grain * rng.uniform(3, 16)
        col = base[None, None, :] + shade[..., None] * np.array([1, 0.8, 0.6])
    elif kind == "concrete":
        base = rand_colour(rng, 60, 200) * np.array([1, 1, 1]) * rng.uniform(0.9, 1.1, 3)
        n = rng.normal(0, rng.uniform(3, 12), (H, W))
        col = base[None, None, :] + n[..., None]
    else:  # sport court colour
        base = rand_colour(rng, 30, 220)
        col = base[None, None, :] + rng.normal(0, rng.uniform(1, 5), (H, W))[..., None]
    return col


def look_at(cam, target, roll):
    f = target - cam; f /= np.linalg.norm(f)
    up = np.array([0, 0, 1.0])
    r = np.cross(f, up); r /= np.linalg.norm(r)
    u = np.cross(r, f)
    cr, sr = math.cos(roll), math.sin(roll)
    r2 = cr * r + sr * u; u2 = -sr * r + cr * u
    # camera axes: x right, y down, z forward
    return np.stack([r2, -u2, f])


def render(rng, W=320, H=192):
    book = rng.choice(list(BOOKS))
    bk = BOOKS[book]
    # camera
    kind_view = rng.random()
    if kind_view < 0.45:  # from a sideline
        cam = np.array([rng.uniform(-2, 14), rng.choice([-1, 1]) * rng.uniform(6, 16), rng.uniform(0.8, 6)])
    elif kind_view < 0.8:  # from behind the baseline or the far court
        cam = np.array([rng.choice([rng.uniform(-8, -0.5), rng.uniform(8, 22)]), rng.uniform(-8, 8), rng.uniform(0.8, 8)])
    else:  # high, broadcast-like
        cam = np.array([rng.uniform(-4, 16), rng.choice([-1, 1]) * rng.uniform(9, 20), rng.uniform(5, 12)])
    target = np.array([rng.uniform(0, 7), rng.uniform(-4, 4), rng.uniform(0, 2.5)])
    R = look_at(cam, target, math.radians(rng.normal(0, 3)))
    hfov = math.radians(rng.uniform(35, 85))
    f = (W / 2) / math.tan(hfov / 2)
    u, v = np.meshgrid(np.arange(W) + 0.5, np.arange(H) + 0.5)
    rays = np.stack([(u - W / 2) / f, (v - H / 2) / f, np.ones_like(u)], -1) @ R  # world directions
    dz = rays[..., 2]
    floor = dz < -1e-4
    t = np.where(floor, -cam[2] / np.where(floor, dz, -1), 0)
    X = cam[0] + t * rays[..., 0]
    Y = cam[1] + t * rays[..., 1]
    far = t > 70
    floor &= ~far
    # pixel footprint on the floor (m), for soft line coverage
    fx = np.hypot(np.gradient(X, axis=1), np.gradient(Y, axis=1))
    fy = np.hypot(np.gradient(X, axis=0), np.gradient(Y, axis=0))
    foot = np.clip(np.maximum(fx, fy), 1e-3, 5)
    kind = rng.choice(["wood", "wood", "concrete", "sport"])
    col = floor_texture(X, Y, rng, kind)
    w2 = bk["width"] / 2
    in_court = (np.abs(Y) <= w2) & (X >= 0) & (X <= 2 * bk["half"])
    if rng.random() < 0.5:  # out of bounds another colour
        oob = rand_colour(rng, 20, 220)
        col = np.where(in_court[..., None], col, oob[None, None, :] + (col - col.mean((0, 1))) * 0.5)
    # painted key / inside the arc
    if rng.random() < 0.5:
        kb, kf, ft = bk["kb"] / 2, bk["kf"] / 2, bk["ft"]
        for Xk in (X, 2 * bk["half"] - X):
            half = kb + (kf - kb) * np.clip(Xk / ft, 0, 1)
            key = (Xk >= 0) & (Xk <= ft) & (np.abs(Y) <= half)
            kc = rand_colour(rng, 20, 220)
            col = np.where(key[..., None], kc[None, None, :] + (col - col.mean((0, 1))) * 0.4, col)
    if rng.random() < 0.25:
        c3 = rand_colour(rng, 20, 220)
        inside = (np.hypot(X - bk["basket"], Y) < bk["r3"]) & (np.abs(Y) < bk["c3"]) & (X >= 0)
        rng.random()  # a draw the measured pictures' seeds were made with: kept so they make the same pictures
        col = np.where(inside[..., None], col * 0.6 + c3 * 0.4, col)
    # lines
    hw = rng.uniform(0.025, 0.04)
    d = court_line_dist(X, Y, bk)
    cover = np.clip((hw - d) / foot + 0.5, 0, 1)
    cover_other = np.zeros_like(cover)
    if rng.random() < 0.35:
        do = other_sport_lines(X, Y, rng)
        cover_other = np.clip((0.025 - do) / foot + 0.5, 0, 1)
    r0 = rng.random()
    line_col = np.array([245, 245, 245.0]) * rng.uniform(0.8, 1.05) if r0 < 0.6 else (rand_colour(rng, 0, 60) if r0 < 0.8 else rand_colour(rng, 0, 255))
    if rng.random() < 0.3:  # worn paint
        wear = (np.sin(X * rng.uniform(2, 9)) * np.sin(Y * rng.uniform(2, 9)) > rng.uniform(0.3, 0.9))
        cover = cover * np.where(wear, rng.uniform(0, 0.5), 1)
    # a line the same colour as its floor is no line to see: labelled only where it stands out
    seen = np.abs(col - line_col).mean(-1) > 15
    col = col * (1 - cover[..., None]) + line_col * cover[..., None]
    label = (cover > 0.35) & seen
    if cover_other.any():
        oc = rand_colour(rng, 0, 255)
        seen_o = np.abs(col - oc).mean(-1) > 15
        col = col * (1 - cover_other[..., None]) + oc * cover_other[..., None]
        label |= (cover_other > 0.35) & seen_o
    # walls and the world beyond the floor: a horizon wall band with stripes, pads, bleachers
    wall_base = rand_colour(rng, 30, 230)
    wall = np.ones((H, W, 3)) * wall_base
    rows = np.arange(H)[:, None]
    for _ in range(rng.integers(0, 6)):
        y0 = rng.uniform(0, H); th = rng.uniform(1, 8)
        wall = np.where(((rows - y0) % rng.uniform(H / 2, 3 * H) < th)[..., None] & np.ones((1, W, 1), bool), rand_colour(rng, 0, 255), wall)
    for _ in range(rng.integers(0, 8)):
        x0 = rng.uniform(0, W); tw = rng.uniform(1, 40)
        wall = np.where((np.abs(np.arange(W)[None, :] - x0) < tw)[..., None] & np.ones((H, 1, 1), bool), wall * rng.uniform(0.6, 1.3), wall)
    # clutter above the floor: window grids, frames, poles, wires and foliage (edges that are no painted line)
    for _ in range(rng.integers(0, 5)):
        x0, y0 = rng.uniform(-W / 4, W), rng.uniform(-H / 4, H * 0.8)
        bw, bh = rng.uniform(10, W / 2), rng.uniform(10, H / 2)
        nx, ny = rng.integers(1, 6), rng.integers(1, 5)
        th = rng.uniform(0.7, 3)
        c = rand_colour(rng)
        inbox = (u > x0) & (u < x0 + bw) & (v > y0) & (v < y0 + bh)
        gx = np.abs(((u - x0) / (bw / nx) + 0.5) % 1 - 0.5) * (bw / nx) < th
        gy = np.abs(((v - y0) / (bh / ny) + 0.5) % 1 - 0.5) * (bh / ny) < th
        if rng.random() < 0.5:
            wall = np.where(inbox[..., None], wall * rng.uniform(0.4, 1.4), wall)
        wall = np.where((inbox & (gx | gy))[..., None], c, wall)
    for _ in range(rng.integers(0, 6)):
        ang = rng.uniform(0, math.pi); cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        dist = np.abs((u - cx) * math.sin(ang) - (v - cy) * math.cos(ang))
        wall = np.where((dist < rng.uniform(0.5, 2.5))[..., None], rand_colour(rng), wall)
    if rng.random() < 0.4:  # foliage or a crowd: blotchy texture
        blot = np.asarray(Image.fromarray((rng.random((H // 4 + 1, W // 4 + 1)) * 255).astype(np.uint8)).resize((W, H), Image.BILINEAR)).astype(np.float32)
        band = v < rng.uniform(0.2, 0.8) * H
        tint = rand_colour(rng, 20, 200)
        wall = np.where(band[..., None], tint * (0.5 + blot[..., None] / 255) + rng.normal(0, 20, (H, W, 1)), wall)
    wall += rng.normal(0, rng.uniform(1, 10), (H, W, 1))
    # the wall stands where the floor ends: beyond a random distance behind the court
    wall_at = np.hypot(X - cam[0], Y - cam[1]) > rng.uniform(15, 60)
    wall_mask = ~floor | wall_at
    col = np.where(wall_mask[..., None], wall, col)
    label &= ~wall_mask
    # reflections of lights on a shiny floor
    if kind == "wood" and rng.random() < 0.5:
        for _ in range(rng.integers(1, 5)):
            cx, cy = rng.uniform(0, W), rng.uniform(H * 0.3, H)
            sx, sy = rng.uniform(3, 30), rng.uniform(10, 80)
            blob = np.exp(-(((u - cx) / sx) ** 2 + ((v - cy) / sy) ** 2))
            col = col + blob[..., None] * rng.uniform(20, 90)
    # people and things standing on the floor
    for _ in range(rng.integers(0, 6)):
        px, py = rng.uniform(0, W), rng.uniform(H * 0.2, H * 1.1)
        ph = rng.uniform(0.1, 0.9) * H; pw = ph * rng.uniform(0.2, 0.45)
        body = (np.abs(u - px) < pw / 2 * (1 - 0.3 * (v - (py - ph)) / ph)) & (v > py - ph) & (v < py)
        pc = rand_colour(rng)
        tex = rng.normal(0, 12, (H, W, 1))
        shirt = body & (v < py - ph * rng.uniform(0.35, 0.6))
        col = np.where(body[..., None], pc + tex, col)
        col = np.where(shirt[..., None], rand_colour(rng) + tex, col)
        label &= ~body
    # lighting gradient, blur, noise, jpeg
    g = 1 + rng.uniform(-0.3, 0.3) * (u / W - 0.5) + rng.uniform(-0.3, 0.3) * (v / H - 0.5)
    col = col * g[..., None] * rng.uniform(0.6, 1.2)
    img = Image.fromarray(np.clip(col, 0, 255).astype(np.uint8))
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 1.3)))
    arr = np.asarray(img).astype(np.float32) + rng.normal(0, rng.uniform(0.5, 5), (H, W, 3))
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    buf = io.BytesIO(); img.save(buf, "JPEG", quality=int(rng.uniform(35, 92))); buf.seek(0)
    img = np.asarray(Image.open(buf).convert("RGB"))
    return img, label.astype(np.uint8), book


def dataset(seed, n, path):
    """n pictures that show a court (at least 0.2 % of their pixels on painted lines), saved as one .npz."""
    rng = np.random.default_rng(seed)
    imgs = np.zeros((n, 192, 320, 3), np.uint8); labs = np.zeros((n, 192, 320), np.uint8)
    k = 0
    while k < n:
        img, lab, _ = render(rng)
        if lab.mean() < 0.002:
            continue
        imgs[k], labs[k] = img, lab; k += 1
    np.savez(path, imgs=imgs, labs=labs)


def contact_sheet(seed, path, n=12):
    """n pictures beside their masks (red), to look at what the generator makes."""
    rng = np.random.default_rng(seed)
    tiles = []
    for _ in range(n):
        img, lab, _ = render(rng)
        over = img.copy(); over[lab > 0] = [255, 0, 0]
        tiles.append(np.concatenate([img, over], 1))
    Image.fromarray(np.concatenate([np.concatenate(tiles[i:i + 2], 1) for i in range(0, n, 2)], 0)).save(path)


if __name__ == "__main__":
    import sys
    if sys.argv[1] == "sheet":
        contact_sheet(int(sys.argv[2]), sys.argv[3])
    else:
        dataset(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
