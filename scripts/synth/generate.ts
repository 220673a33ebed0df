// Synthetic basketball game generator: seeded, deterministic, frames rendered in Node and
// encoded with libx264. Usage:
//   npx tsx scripts/synth/generate.ts --seed 1 --seconds 30 --camera wide --size 720p --out dir/
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FFMPEG } from "../../gpu-runner/media/binaries.ts";
import { COURT, HOOP_X, BASELINE_X } from "./court.ts";
import { project } from "./camera.ts";
import { JERSEYS } from "./palette.ts";
import { makeRenderer, SIZES, type CameraVariant, type SizeName } from "./render.ts";
import { makeRng } from "./rng.ts";
import { simulateGame, type GtShot } from "./script.ts";

export interface GenerateOptions {
  seed: number;
  seconds: number;
  camera: CameraVariant;
  size: SizeName;
  out: string;
  players?: number;
  fps?: number;
  /** x264 preset; tests use ultrafast, benches the default. */
  preset?: string;
  crf?: number;
  /**
   * Sensor-like noise amplitude (0 = clean). Clean synthetic frames compress to almost nothing and
   * decode several times faster than camera footage, which would make decode-relative speed figures
   * meaningless; bench/runner.ts uses grain to get a realistic bitrate.
   */
  grain?: number;
}

/** Bumped whenever the same seed would render a different game; caches compare it. */
export const GENERATOR_VERSION = 3;

export interface GroundTruth {
  generator_version: number;
  seed: number;
  camera: CameraVariant;
  size: SizeName;
  width: number;
  height: number;
  fps: number;
  seconds: number;
  video: string;
  team_colors: [string, string];
  players: Array<{ id: string; team: 0 | 1; jersey: string }>;
  shots: Array<GtShot & { court_position_normed: [number, number]; hoop_image: [number, number] }>;
  /** Every player's image box (normalised centre x, centre y, height) sampled over time, for matching detections to people. */
  player_samples: Array<{ t: number; boxes: Record<string, [number, number, number]> }>;
}

export async function generateGame(opts: GenerateOptions): Promise<GroundTruth> {
  const fps = opts.fps ?? 30;
  const [W, H] = SIZES[opts.size];
  const rng = makeRng(opts.seed * 7919 + 13);
  const nPlayers = opts.players ?? rng.pick([2, 4, 6, 6, 8, 10]);
  const script = simulateGame({ seed: opts.seed, seconds: opts.seconds, fps, players: nPlayers });
  const c0 = rng.int(0, JERSEYS.length - 1);
  let c1 = rng.int(0, JERSEYS.length - 1);
  if (c1 === c0) c1 = (c0 + 1) % JERSEYS.length;
  const renderer = makeRenderer(script, opts.camera, W, H, [c0, c1]);
  await mkdir(opts.out, { recursive: true });
  const name = `game-s${opts.seed}-${opts.camera}-${opts.size}${opts.grain ? `-g${opts.grain}` : ""}`;
  const video = path.join(opts.out, `${name}.mp4`);
  const ff = spawn(FFMPEG, [
    "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${W}x${H}`, "-r", String(fps), "-i", "pipe:0",
    "-c:v", "libx264", "-preset", opts.preset ?? "veryfast", "-crf", String(opts.crf ?? 21), "-pix_fmt", "yuv420p",
    "-g", String(fps * 2), "-movflags", "+faststart", video,
  ], { stdio: ["pipe", "ignore", "pipe"] });
  let err = "";
  ff.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const done = new Promise<void>((resolve, reject) => ff.on("close", (c) => (c === 0 ? resolve() : reject(new Error(`ffmpeg encode failed: ${err}`)))));
  const grain = opts.grain ?? 0;
  // A fixed table of noise read at a per-frame offset: cheap, and still deterministic per seed.
  const noise = grain > 0 ? Int8Array.from({ length: 1 << 20 }, () => Math.round((rng.next() + rng.next() + rng.next() - 1.5) * 2 * grain)) : null;
  for (let i = 0; i < script.frames; i++) {
    // A fresh buffer per frame: the pipe may still hold the previous one.
    const buf = Buffer.allocUnsafe(W * H * 3);
    renderer.render(i, buf);
    if (noise) {
      const off = (i * 7919 * 3) & ((1 << 20) - 1);
      for (let k = 0; k < buf.length; k++) {
        const v = buf[k] + noise[(off + k) & ((1 << 20) - 1)];
        buf[k] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
    if (!ff.stdin.write(buf)) await new Promise((r) => ff.stdin.once("drain", r));
  }
  ff.stdin.end();
  await done;
  const gt: GroundTruth = {
    generator_version: GENERATOR_VERSION,
    seed: opts.seed,
    camera: opts.camera,
    size: opts.size,
    width: W,
    height: H,
    fps,
    seconds: script.frames / fps,
    video: path.basename(video),
    team_colors: [JERSEYS[c0].name, JERSEYS[c1].name],
    players: script.players.map((p) => ({ id: p.id, team: p.team, jersey: p.jersey })),
    shots: script.shots.map((s) => {
      const cam = renderer.cameraAt(Math.round(s.release_seconds * fps));
      const hp = project(cam, [HOOP_X, 0, COURT.rimHeight]);
      return {
        ...s,
        // Half-court coordinates: x across the court (0..1 from one sideline), y from the baseline.
        court_position_normed: [(s.court_position[1] + COURT.width / 2) / COURT.width, (BASELINE_X - s.court_position[0]) / (COURT.length / 2)],
        hoop_image: [hp[0] / W, hp[1] / H],
      };
    }),
    player_samples: [],
  };
  const sampleEvery = Math.max(1, Math.round(fps / 5));
  for (let i = 0; i < script.frames; i += sampleEvery) {
    const cam = renderer.cameraAt(i);
    const boxes: Record<string, [number, number, number]> = {};
    script.players.forEach((p, k) => {
      const x = script.playerPos[i][k * 2], y = script.playerPos[i][k * 2 + 1];
      const foot = project(cam, [x, y, 0]), head = project(cam, [x, y, p.height]);
      if (foot[2] > 0.5) boxes[p.id] = [round4(foot[0] / W), round4((foot[1] + head[1]) / 2 / H), round4((foot[1] - head[1]) / H)];
    });
    gt.player_samples.push({ t: round4(i / fps), boxes });
  }
  await writeFile(path.join(opts.out, `${name}.json`), JSON.stringify(gt));
  return gt;
}

const round4 = (x: number) => Math.round(x * 10000) / 10000;

function parseArgs(argv: string[]): GenerateOptions {
  const get = (k: string, d?: string) => {
    const i = argv.indexOf(`--${k}`);
    return i >= 0 ? argv[i + 1] : d;
  };
  const size = get("size", "720p") as SizeName;
  if (!(size in SIZES)) throw new Error(`--size must be one of ${Object.keys(SIZES).join(", ")}`);
  const camera = get("camera", "wide") as CameraVariant;
  if (!["wide", "pan", "side", "portrait"].includes(camera)) throw new Error("--camera must be wide, pan, side or portrait");
  return {
    seed: Number(get("seed", "1")),
    seconds: Number(get("seconds", "30")),
    camera,
    size,
    out: get("out", "bench/out/games")!,
    players: get("players") ? Number(get("players")) : undefined,
    fps: Number(get("fps", "30")),
    preset: get("preset"),
    grain: get("grain") ? Number(get("grain")) : undefined,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const t0 = Date.now();
  generateGame(parseArgs(process.argv.slice(2))).then(
    (gt) => console.log(`${gt.video}: ${gt.seconds}s ${gt.width}x${gt.height}, ${gt.players.length} players, ${gt.shots.length} shots (${((Date.now() - t0) / 1000).toFixed(1)}s)`),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
