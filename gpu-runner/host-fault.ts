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
