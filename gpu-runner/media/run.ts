import { spawn } from "node:child_process";
import { HostFaultError } from "../host-fault.ts";

export class MediaError extends Error {
  constructor(message: string, readonly stderr = "") {
    super(message);
    this.name = "MediaError";
  }
}

/**
 * Media tools run in their own process group (`detached`), so a Ctrl-C or a service manager's
 * SIGTERM sent to the runner's group does not kill them mid-job: the runner decides (a first
 * signal lets the job finish, a second cancels it through the AbortSignal).
 */
export const MEDIA_SPAWN_OPTIONS = { detached: true } as const;

/**
 * Runs a media tool to completion and collects stdout. An AbortSignal sends SIGTERM and then,
 * after a grace period, SIGKILL, because ffmpeg sometimes ignores SIGTERM while flushing.
 */
export function runTool(bin: string, args: string[], signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new MediaError("aborted"));
    const child = spawn(bin, args, { ...MEDIA_SPAWN_OPTIONS, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => {
      // Keep only the tail: ffmpeg's stderr can be megabytes of progress lines.
      err = (err + d.toString()).slice(-8000);
    });
    const onAbort = () => killGracefully(child);
    signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (e) => reject(new HostFaultError(`${bin} could not be started: ${e.message}`)));
    child.on("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) return reject(new MediaError("aborted", err));
      if (code !== 0) return reject(new MediaError(`${bin.split("/").pop()} exited with ${code}: ${err.split("\n").slice(-4).join(" ")}`, err));
      resolve(Buffer.concat(out));
    });
  });
}

export function killGracefully(child: import("node:child_process").ChildProcess, graceMs = 2000): void {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  const t = setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), graceMs);
  t.unref();
}
