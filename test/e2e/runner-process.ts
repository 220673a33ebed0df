// Starts real GPU runner processes (gpu-runner/main.ts through tsx) against a
// test stack, and makes small test videos with the real ffmpeg.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../../scripts/lib/local-stack";
import { FFMPEG, FFPROBE } from "../../gpu-runner/media/binaries";

export interface RunnerProcess {
  child: ChildProcess;
  logs: string[];
  exited: Promise<number | null>;
}

// `node --import tsx` keeps the runner one process, so a signal sent to it
// reaches the runner itself (the tsx CLI would run it as a grandchild).
// The runner uses the colour-filter fixture detector (the synthetic test games); pass
// `env: { HOOPS_DETECTOR: "" }` for the trained default on real footage.
// `group`: the runner leads a process group of its own, so a test can signal the whole group the
// way a terminal's Ctrl-C or a service manager does.
export function startRunner(apiUrl: string, token: string, extra: string[] = [], opts: { env?: Record<string, string>; group?: boolean } = {}): RunnerProcess {
  const workDir = mkdtempSync(path.join(tmpdir(), "hoops-runner-"));
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "gpu-runner/main.ts"), "--api-url", apiUrl, "--token", token, "--work-dir", workDir, "--allow-loopback-urls", "--claim-wait", "2", ...extra],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, HOOPS_FORCE_CPU: "1", HOOPS_DETECTOR: "synthetic-fixture", ...opts.env }, detached: opts.group === true },
  );
  const logs: string[] = [];
  const collect = (d: Buffer) => {
    for (const line of d.toString().split("\n")) if (line.trim()) logs.push(line);
    if (process.env.E2E_VERBOSE) process.stderr.write(d);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, logs, exited };
}

/**
 * Waits for a runner's log line: the runner tells the API first and logs after, so a line about a job
 * can come a moment after the API already shows the job's outcome.
 */
export async function waitForLog(runner: RunnerProcess, match: (line: string) => boolean, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = runner.logs.find(match);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`log line not seen:\n${runner.logs.join("\n")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A synthetic test pattern video with a tone, H.264/AAC in MP4. */
export function makeTestVideo(file: string, opts: { width: number; height: number; seconds: number; fps?: number }): void {
  const r = spawnSync(FFMPEG, [
    "-hide_banner", "-y",
    "-f", "lavfi", "-i", `testsrc2=size=${opts.width}x${opts.height}:rate=${opts.fps ?? 30}`,
    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
    "-t", String(opts.seconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", file,
  ]);
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
}

export function probeHeight(urlOrFile: string): number {
  const r = spawnSync(FFPROBE, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=height", "-of", "csv=p=0", urlOrFile], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ffprobe failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}
