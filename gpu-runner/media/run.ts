import { spawn } from "node:child_process";
import { HostFaultError, toolHostFault } from "../host-fault.ts";

export class MediaError extends Error {
  /** The signal that killed the tool, when one did. */
  constructor(message: string, readonly stderr = "", readonly killedBy: NodeJS.Signals | null = null) {
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

/** Signals a terminal or a service manager sends to a whole process group. */
const GROUP_SIGNALS: ReadonlySet<string> = new Set(["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]);

/**
 * Runs a media tool to completion and collects stdout. An AbortSignal sends SIGTERM and then,
 * after a grace period, SIGKILL, because ffmpeg sometimes ignores SIGTERM while flushing.
 *
 * A tool killed by a group signal that the runner did not send is run once more: a child joins its
 * own process group (`detached`) only after the fork, so a Ctrl-C to the runner's group in the
 * instant a tool starts reaches the tool too, while the runner itself is finishing its jobs. Every
 * tool here writes its outputs afresh (`-y`), so running it again is safe.
 */
export async function runTool(bin: string, args: string[], signal?: AbortSignal): Promise<Buffer> {
  try {
    return await runToolOnce(bin, args, signal);
  } catch (e) {
    if (!(e instanceof MediaError) || !e.killedBy || !GROUP_SIGNALS.has(e.killedBy) || signal?.aborted) throw e;
    return runToolOnce(bin, args, signal);
  }
}

function runToolOnce(bin: string, args: string[], signal?: AbortSignal): Promise<Buffer> {
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
    child.on("close", (code, killedBy) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) return reject(new MediaError("aborted", err));
      if (code !== 0) {
        const tool = bin.split("/").pop()!;
        // A full or read-only disk under its output is the host's fault, not the video's.
        const hostFault = killedBy ? null : toolHostFault(tool, err);
        return reject(hostFault ?? new MediaError(`${tool} exited with ${code ?? killedBy}: ${err.split("\n").slice(-4).join(" ")}`, err, killedBy));
      }
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
