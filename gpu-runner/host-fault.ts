/**
 * A fault of this runner's host, never of the video: a media tool that cannot be started (missing,
 * not executable), a work directory that cannot be written (disk full, permissions). Failing the
 * session would blame the customer's file, so the loop hands the job back for a healthy runner and
 * stops this one for its operator to fix.
 */
export class HostFaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostFaultError";
  }
}

/** errno codes of a local file operation that the host is to blame for, whatever the video. */
const HOST_ERRNO_CODES = new Set(["ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM"]);

/** What a media tool prints when the disk under its output is full or read-only. */
const HOST_TOOL_MESSAGE = /No space left on device|Disk quota exceeded|Read-only file system/i;

/**
 * The host fault in `err`, if it is one: a HostFaultError, or a file operation of the job (its
 * folder, an artifact, a clip) that failed because the disk is full, read-only or not ours. Any
 * other error (the video's, the network's) is not.
 */
export function hostFaultOf(err: unknown): HostFaultError | null {
  if (err instanceof HostFaultError) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code === "string" && HOST_ERRNO_CODES.has(code)) return new HostFaultError(`the work directory cannot be written (${code}): ${(err as Error).message}`);
  return null;
}

/** A media tool that exited with an error because it could not write its output (disk full, read-only), from its stderr. */
export function toolHostFault(tool: string, stderr: string): HostFaultError | null {
  const line = stderr.split("\n").find((l) => HOST_TOOL_MESSAGE.test(l));
  return line ? new HostFaultError(`${tool} could not write its output: ${line.trim()}`) : null;
}
