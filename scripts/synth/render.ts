import { floorPoint, lookAt, project, type Camera } from "./camera.ts";
import { BASELINE_X, COURT, FT_LINE_X, HOOP_X } from "./court.ts";
import { drawNumber } from "./font.ts";
import { JERSEYS, PALETTE, type RGB } from "./palette.ts";
import type { GameScript } from "./script.ts";

export type CameraVariant = "wide" | "pan" | "side" | "portrait";
export const SIZES = {
  "720p": [1280, 720],
  "1080p": [1920, 1080],
  portrait: [720, 1280],
  oversize: [2560, 1440],
} as const;
export type SizeName = keyof typeof SIZES;

interface CameraRig {
  base: Camera;
  /** Extra background width for the pan: the pan is a sensor shift over a wider render. */
  panAmplitude: number;
  panPeriodSeconds: number;
}

export function cameraRig(variant: CameraVariant, W: number, H: number): CameraRig {
  const portrait = H > W;
  if (portrait || variant === "portrait") {
    return { base: lookAt([3.0, -1.0, 4.6], [11.0, 0, 1.4], 0.7 * W, W / 2, H / 2), panAmplitude: 0, panPeriodSeconds: 1 };
  }
  switch (variant) {
    case "side":
      return { base: lookAt([17.2, -10.5, 5.2], [8.8, 0.5, 0.6], 0.85 * W, W / 2, H / 2), panAmplitude: 0, panPeriodSeconds: 1 };
    case "pan": {
      const amp = Math.round(0.1 * W);
      return { base: lookAt([8.0, -15.0, 6.5], [9.5, 0, 0.6], 1.05 * W, W / 2 + amp, H / 2), panAmplitude: amp, panPeriodSeconds: 14 };
    }
    default:
      return { base: lookAt([8.0, -15.5, 7.0], [9.5, 0, 0.5], 0.9 * W, W / 2, H / 2), panAmplitude: 0, panPeriodSeconds: 1 };
  }
}

function put(buf: Buffer, W: number, o: number, c: RGB) {
  buf[o] = c[0]; buf[o + 1] = c[1]; buf[o + 2] = c[2];
}

function floorColor(x: number, y: number): RGB {
  const ax = Math.abs(x), ay = Math.abs(y);
  const lw = 0.07;
  if (ax > COURT.length / 2 + lw || ay > COURT.width / 2 + lw) return PALETTE.outOfBounds;
  const onLine =
    ax > COURT.length / 2 - lw || ay > COURT.width / 2 - lw || ax < lw / 2 ||
    (ax > FT_LINE_X - lw && ax < BASELINE_X && Math.abs(ay - COURT.keyWidth / 2) < lw / 2) ||
    (Math.abs(ax - FT_LINE_X) < lw / 2 && ay < COURT.keyWidth / 2) ||
    (Math.abs(Math.hypot(ax - FT_LINE_X, ay) - COURT.ftCircleRadius) < lw / 2 && ax < FT_LINE_X) ||
    Math.abs(Math.hypot(ax, ay) - COURT.ftCircleRadius) < lw / 2 ||
    (ay < COURT.threeCornerY && Math.abs(Math.hypot(ax - HOOP_X, ay) - COURT.threeRadius) < lw / 2 && ax < HOOP_X) ||
    (Math.abs(ay - COURT.threeCornerY) < lw / 2 && ax > HOOP_X - Math.sqrt(COURT.threeRadius ** 2 - COURT.threeCornerY ** 2));
  if (onLine) return PALETTE.line;
  if (ax > FT_LINE_X && ay < COURT.keyWidth / 2) return PALETTE.paint;
  // Plank texture: gives the encoder real detail, like a wooden floor.
  const plank = Math.floor(y / 0.18);
  const shade = ((plank * 37) % 11) - 5;
  return [PALETTE.wood[0] + shade, PALETTE.wood[1] + shade, PALETTE.wood[2] + shade];
}

/** Renders floor, stands and both hoops once per camera; per-frame work is then a copy. */
export function renderBackground(cam: Camera, W: number, H: number): Buffer {
  const buf = Buffer.alloc(W * H * 3);
  for (let v = 0; v < H; v++)
    for (let u = 0; u < W; u++) {
      const o = (v * W + u) * 3;
      const p = floorPoint(cam, u + 0.5, v + 0.5);
      if (!p || Math.abs(p[0]) > 17 || Math.abs(p[1]) > 10) {
        const g = 30 + Math.round((v / H) * 25);
        put(buf, W, o, [g, g + 2, g + 10]);
      } else put(buf, W, o, floorColor(p[0], p[1]));
    }
  for (const side of [1, -1]) drawHoopStatic(buf, W, H, cam, side);
  return buf;
}

function fillQuad(buf: Buffer, W: number, H: number, pts: [number, number][], c: RGB) {
  const minY = Math.max(0, Math.floor(Math.min(...pts.map((p) => p[1])))), maxY = Math.min(H - 1, Math.ceil(Math.max(...pts.map((p) => p[1]))));
  for (let y = minY; y <= maxY; y++) {
    const xs: number[] = [];
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i], b = pts[(i + 1) % pts.length];
      if ((a[1] <= y + 0.5 && b[1] > y + 0.5) || (b[1] <= y + 0.5 && a[1] > y + 0.5)) xs.push(a[0] + ((y + 0.5 - a[1]) * (b[0] - a[0])) / (b[1] - a[1]));
    }
    xs.sort((p, q) => p - q);
    for (let k = 0; k + 1 < xs.length; k += 2)
      for (let x = Math.max(0, Math.round(xs[k])); x < Math.min(W, Math.round(xs[k + 1])); x++) put(buf, W, (y * W + x) * 3, c);
  }
}

export function fillRect(buf: Buffer, W: number, H: number, x0: number, y0: number, x1: number, y1: number, c: RGB) {
  const a = Math.max(0, Math.round(x0)), b = Math.min(W, Math.round(x1));
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(H, Math.round(y1)); y++) for (let x = a; x < b; x++) put(buf, W, (y * W + x) * 3, c);
}

function fillCircle(buf: Buffer, W: number, H: number, cx: number, cy: number, r: number, c: RGB, shade = 0) {
  for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(H - 1, Math.ceil(cy + r)); y++)
    for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(W - 1, Math.ceil(cx + r)); x++) {
      const dx = x + 0.5 - cx, dy = y + 0.5 - cy;
      if (dx * dx + dy * dy > r * r) continue;
      const k = 1 - shade * Math.max(0, (dx + dy) / (2 * r));
      put(buf, W, (y * W + x) * 3, [c[0] * k, c[1] * k, c[2] * k]);
    }
}

function thickLine(buf: Buffer, W: number, H: number, a: [number, number], b: [number, number], t: number, c: RGB) {
  const steps = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) * 2) + 1;
  for (let i = 0; i <= steps; i++) {
    const s = i / steps;
    const x = a[0] + (b[0] - a[0]) * s, y = a[1] + (b[1] - a[1]) * s;
    fillRect(buf, W, H, x - t / 2, y - t / 2, x + t / 2, y + t / 2, c);
  }
}

function drawHoopStatic(buf: Buffer, W: number, H: number, cam: Camera, side: number) {
  const bx = side * (BASELINE_X - COURT.backboardFromBaseline);
  const P = (x: number, y: number, z: number) => project(cam, [x, y, z]);
  if (P(side * HOOP_X, 0, COURT.rimHeight)[2] <= 0.5) return;
  // Pole and arm behind the backboard.
  const foot = P(side * (BASELINE_X + 1.0), 0, 0), top = P(side * (BASELINE_X + 1.0), 0, 3.3), arm = P(bx, 0, 3.3);
  const px = Math.max(2, (cam.f * 0.12) / foot[2]);
  thickLine(buf, W, H, [foot[0], foot[1]], [top[0], top[1]], px, PALETTE.pole);
  thickLine(buf, W, H, [top[0], top[1]], [arm[0], arm[1]], px * 0.8, PALETTE.pole);
  const hw = COURT.backboardWidth / 2, z0 = COURT.backboardBottom, z1 = z0 + COURT.backboardHeight;
  const corners = [P(bx, -hw, z0), P(bx, hw, z0), P(bx, hw, z1), P(bx, -hw, z1)].map((p) => [p[0], p[1]] as [number, number]);
  fillQuad(buf, W, H, corners, PALETTE.backboardMark);
  const inset = 0.05;
  const inner = [P(bx, -hw + inset, z0 + inset), P(bx, hw - inset, z0 + inset), P(bx, hw - inset, z1 - inset), P(bx, -hw + inset, z1 - inset)].map((p) => [p[0], p[1]] as [number, number]);
  fillQuad(buf, W, H, inner, PALETTE.backboard);
  const sq = [P(bx, -0.295, 3.0), P(bx, 0.295, 3.0), P(bx, 0.295, 3.45), P(bx, -0.295, 3.45)].map((p) => [p[0], p[1]] as [number, number]);
  for (let i = 0; i < 4; i++) thickLine(buf, W, H, sq[i], sq[(i + 1) % 4], Math.max(1.5, (cam.f * 0.05) / foot[2]), PALETTE.backboardMark);
  drawRimAndNet(buf, W, H, cam, side, "all");
}

/** The rim is drawn twice: whole in the background, then its front half and the net over the ball. */
export function drawRimAndNet(buf: Buffer, W: number, H: number, cam: Camera, side: number, part: "all" | "front") {
  const hx = side * HOOP_X;
  const centreDepth = project(cam, [hx, 0, COURT.rimHeight])[2];
  if (centreDepth <= 0.5) return;
  const t = Math.max(2, (cam.f * 0.045) / centreDepth);
  const N = 36;
  const pts: [number, number, number][] = [];
  for (let i = 0; i <= N; i++) {
    const a = (i / N) * Math.PI * 2;
    pts.push(project(cam, [hx + Math.cos(a) * COURT.rimRadius, Math.sin(a) * COURT.rimRadius, COURT.rimHeight]));
  }
  for (let i = 0; i < N; i += 3) {
    const a = (i / N) * Math.PI * 2;
    const top = pts[i];
    if (part === "front" && top[2] > centreDepth) continue;
    const bot = project(cam, [hx + Math.cos(a) * 0.12, Math.sin(a) * 0.12, COURT.rimHeight - 0.42]);
    thickLine(buf, W, H, [top[0], top[1]], [bot[0], bot[1]], Math.max(1, t * 0.4), PALETTE.net);
  }
  for (let i = 0; i < N; i++) {
    if (part === "front" && pts[i][2] > centreDepth) continue;
    thickLine(buf, W, H, [pts[i][0], pts[i][1]], [pts[i + 1][0], pts[i + 1][1]], t, PALETTE.rim);
  }
}

export interface FrameRenderer {
  width: number;
  height: number;
  /** Camera used for frame i (the pan moves the principal point). */
  cameraAt(i: number): Camera;
  render(i: number, out: Buffer): void;
}

export function makeRenderer(script: GameScript, variant: CameraVariant, W: number, H: number, teamColors: [number, number]): FrameRenderer {
  const rig = cameraRig(variant, W, H);
  const panoW = W + 2 * rig.panAmplitude;
  const bg = renderBackground(rig.base, panoW, H);
  const offsetAt = (i: number) => Math.round(rig.panAmplitude * (1 + Math.sin((2 * Math.PI * i) / (script.fps * rig.panPeriodSeconds))));
  const cameraAt = (i: number): Camera => ({ ...rig.base, cx: rig.base.cx - offsetAt(i) });
  const rowBytes = W * 3, panoRow = panoW * 3;
  return {
    width: W,
    height: H,
    cameraAt,
    render(i, out) {
      const off = offsetAt(i) * 3;
      if (panoW === W) bg.copy(out);
      else for (let y = 0; y < H; y++) bg.copy(out, y * rowBytes, y * panoRow + off, y * panoRow + off + rowBytes);
      const cam = cameraAt(i);
      const n = script.players.length;
      const pp = script.playerPos[i];
      const items: Array<{ depth: number; draw: () => void }> = [];
      for (let k = 0; k < n; k++) {
        const x = pp[k * 2], y = pp[k * 2 + 1];
        const foot = project(cam, [x, y, 0]);
        if (foot[2] <= 0.5) continue;
        items.push({ depth: foot[2], draw: () => drawPlayer(out, W, H, cam, x, y, script.players[k].height, JERSEYS[teamColors[script.players[k].team]], script.players[k].jersey) });
      }
      const b = script.ball.subarray(i * 3, i * 3 + 3);
      const bp = project(cam, [b[0], b[1], b[2]]);
      // The ball is held in front of its holder (towards the camera), so it sorts slightly nearer.
      if (bp[2] > 0.5) items.push({ depth: bp[2] - 0.5, draw: () => fillCircle(out, W, H, bp[0], bp[1], Math.max(1.5, (cam.f * COURT.ballRadius) / bp[2]), PALETTE.ball, 0.35) });
      items.sort((a, c) => c.depth - a.depth);
      for (const it of items) it.draw();
      if (Math.hypot(b[0] - HOOP_X, b[1]) < 1.2 && b[2] > 2) drawRimAndNet(out, W, H, cam, 1, "front");
    },
  };
}

function drawPlayer(buf: Buffer, W: number, H: number, cam: Camera, x: number, y: number, h: number, jersey: (typeof JERSEYS)[number], number: string) {
  const foot = project(cam, [x, y, 0]);
  const head = project(cam, [x, y, h]);
  const ph = foot[1] - head[1];
  const s = ph / h; // pixels per metre at this depth
  const u = foot[0], v0 = foot[1];
  const zv = (z: number) => v0 - z * s;
  const half = 0.24 * s;
  // legs
  fillRect(buf, W, H, u - half * 0.8, zv(0.47 * h), u - half * 0.15, v0, PALETTE.skin);
  fillRect(buf, W, H, u + half * 0.15, zv(0.47 * h), u + half * 0.8, v0, PALETTE.skin);
  // shorts and jersey in the team colour
  fillRect(buf, W, H, u - half, zv(0.5 * h), u + half, zv(0.36 * h), jersey.rgb);
  fillRect(buf, W, H, u - half, zv(0.82 * h), u + half, zv(0.5 * h), jersey.rgb);
  // arms
  fillRect(buf, W, H, u - half - 0.09 * s, zv(0.8 * h), u - half, zv(0.5 * h), PALETTE.skin);
  fillRect(buf, W, H, u + half, zv(0.8 * h), u + half + 0.09 * s, zv(0.5 * h), PALETTE.skin);
  // head
  fillCircle(buf, W, H, u, zv(0.9 * h), 0.075 * h * s, PALETTE.skin);
  fillRect(buf, W, H, u - 0.06 * h * s, zv(0.975 * h), u + 0.06 * h * s, zv(0.94 * h), PALETTE.hair);
  // ~30 cm digits: two of them fit inside the shirt, as on real jerseys.
  drawNumber(buf, W, H, number, u, zv(0.67 * h), 0.16 * h * s, jersey.number);
}
