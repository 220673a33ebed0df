// Generated games shared by the runner tests, cached under test/.cache (git-ignored) so a
// clean clone regenerates them with the committed generator and later runs reuse them.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { GENERATOR_VERSION, generateGame, type GenerateOptions, type GroundTruth } from "../../scripts/synth/generate.ts";

export const CACHE_DIR = path.resolve(import.meta.dirname, "../.cache/gpu-runner");

export async function syntheticGame(opts: Omit<GenerateOptions, "out">): Promise<{ video: string; gt: GroundTruth }> {
  await mkdir(CACHE_DIR, { recursive: true });
  const base = path.join(CACHE_DIR, `game-s${opts.seed}-${opts.camera}-${opts.size}`);
  const video = `${base}.mp4`;
  if (existsSync(`${base}.json`) && existsSync(video)) {
    const gt = JSON.parse(readFileSync(`${base}.json`, "utf8")) as GroundTruth;
    if (gt.seconds === opts.seconds && gt.player_samples && gt.generator_version === GENERATOR_VERSION) return { video, gt };
  }
  // Test files run in parallel workers and may want the same game: generate privately, then
  // rename into place (atomic), so nobody reads a half-written file.
  const tmp = await mkdtemp(path.join(CACHE_DIR, "tmp-"));
  const gt = await generateGame({ preset: "ultrafast", ...opts, out: tmp });
  const name = path.basename(base);
  await rename(path.join(tmp, `${name}.mp4`), video);
  await rename(path.join(tmp, `${name}.json`), `${base}.json`);
  await rm(tmp, { recursive: true, force: true });
  return { video, gt };
}

/** A local HTTP server that answers every request with one video file (a job's source download). */
export async function serveVideo(file: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const bytes = readFileSync(file);
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "video/mp4", "Content-Length": String(bytes.length) });
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
