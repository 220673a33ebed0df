// The runner's loops. Each concurrency slot runs a claim loop (long-poll with
// jitter, so a fleet does not poll in lock-step); each claimed job gets its
// own heartbeat loop (renews the lease at about half its length, reports
// progress, and relays a cancel request) beside the work itself. A job always
// ends reported: completed, failed with a code, or released on shutdown.
//
// Shutdown: the first stop() stops claiming and lets running jobs finish; a
// second cancels them (ffmpeg is killed through the AbortSignal) and hands
// them back so another runner picks them up at once.
import path from "node:path";
import { backoffMs, ContractMismatchError, FatalRunnerError, LeaseLostError, sleep, type ClaimedJob, type RunnerApi } from "./api";
import { cleanWorkDir, CompletionNotReported, JobFailure, JobStopped, runJob, type Pipeline } from "./job";
import type { Logger } from "./log";
import type { HostResolver } from "../contract/url-policy";
import type { MediaHardware } from "./media/hardware";
import { hostFaultOf } from "./host-fault";
import type { AnalysisModels } from "./vision/models";

export interface RunnerConfig {
  concurrency: number;
  workDir: string;
  pipeline: Pipeline;
  apiOrigin: string;
  /** Development only: source links may point at hosts that resolve to loopback. */
  allowLoopbackUrls: boolean;
  /** Resolves source links' hosts (DoH with --doh-url, else the host's resolver). */
  resolver?: HostResolver;
  /** Long-poll length for claims (the API caps it at 25 s). */
  claimWaitSeconds: number;
  /** Keep job folders after the job (debugging). */
  keepWork?: boolean;
  /** The analysis models, opened once for the process (unused by the media pipeline). */
  models: AnalysisModels;
}

type AbortReason = "shutdown" | "cancel" | "lease_lost" | "fatal";

const HEARTBEAT_MIN_MS = 1_000;
const HEARTBEAT_MAX_MS = 30_000;

export class Runner {
  private stopping = false;
  /** Aborted at the first stop: wakes the loops' sleeps. */
  private readonly stopSignal = new AbortController();
  /** Aborted at the second stop (or a fatal error): cuts in-flight claims off. */
  private readonly claimAbort = new AbortController();
  private readonly running = new Map<string, AbortController>();
  private fatal: Error | null = null;

  constructor(
    private readonly api: RunnerApi,
    private readonly config: RunnerConfig,
    private readonly hw: MediaHardware,
    private readonly log: Logger,
  ) {}

  /** Runs until stopped; rejects with the fatal error (e.g. a revoked token). */
  async run(): Promise<void> {
    this.log.info("runner started", { concurrency: this.config.concurrency, pipeline: this.config.pipeline, encoder: this.hw.encoder });
    await Promise.all(Array.from({ length: this.config.concurrency }, (_, slot) => this.claimLoop(slot)));
    this.log.info("runner stopped");
    if (this.fatal) throw this.fatal;
  }

  /**
   * First call: claim no more and finish current jobs. A claim already in
   * flight is let finish and any job it brings is released at once (cutting
   * the request off could leave the API leasing a job to nobody until the
   * lease runs out). Second call: cancel current jobs too and stop waiting.
   */
  stop(): void {
    if (!this.stopping) {
      this.stopping = true;
      this.stopSignal.abort();
      this.log.info("stopping: finishing current jobs (send the signal again to cancel them)", { running: this.running.size });
      return;
    }
    this.log.warn("cancelling current jobs", { running: this.running.size });
    this.claimAbort.abort();
    for (const controller of this.running.values()) controller.abort("shutdown" satisfies AbortReason);
  }

  /** Stops at once, handing current jobs back; run() then rejects with `err`. */
  private stopFatally(err: Error): void {
    this.fatal ??= err;
    this.stopping = true;
    this.stopSignal.abort();
    this.claimAbort.abort();
    for (const c of this.running.values()) c.abort("fatal" satisfies AbortReason);
  }

  get activeJobs(): number {
    return this.running.size;
  }

  private async claimLoop(slot: number): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let job: ClaimedJob | null = null;
      try {
        job = (await this.api.claim(this.config.claimWaitSeconds, this.claimAbort.signal)).job;
        failures = 0;
      } catch (err) {
        if (this.stopping) break;
        if (err instanceof FatalRunnerError) {
          this.log.error("the API refused the runner token; exiting", { error: err.message });
          this.stopFatally(err);
          break;
        }
        if (err instanceof ContractMismatchError) {
          // The API leased a job this runner cannot read (a different version): claiming on would
          // lease and strand job after job, each costing an attempt of a customer's session.
          this.log.error("the API's claim answer does not match this runner's contract (upgrade the runner or the API); exiting", { error: err.message });
          this.stopFatally(err);
          break;
        }
        const wait = backoffMs(failures++, { attempts: Infinity, baseMs: 1000, maxMs: 60_000 });
        this.log.warn("claim failed; backing off", { slot, error: (err as Error).message, wait_ms: Math.round(wait) });
        await sleep(wait, this.stopSignal.signal);
        continue;
      }
      if (job && this.stopping) {
        await this.api.release(job.id, job.lease.id, "runner shutting down before starting it").catch((err) =>
          this.log.warn("could not release a job claimed while stopping; its lease will expire", { job_id: job.id, error: (err as Error).message }),
        );
      } else if (job) await this.handle(job, slot);
      else await sleep(Math.random() * 1000, this.stopSignal.signal);
    }
  }

  private async handle(job: ClaimedJob, slot: number): Promise<void> {
    const log = this.log.child({ job_id: job.id, session_id: job.session, attempt: job.attempt, slot });
    const controller = new AbortController();
    // Keyed by lease, not job: after a stalled heartbeat let the lease lapse, another slot of this
    // runner can claim the same job while this one winds down, and neither may touch the other's
    // controller or files.
    this.running.set(job.lease.id, controller);
    const workDir = path.join(this.config.workDir, `${job.id}-${job.lease.id}`);
    let stage = "claimed";
    let percent = 0;
    let lastLogged = -10;
    // Seconds spent per stage, logged with the outcome (bench/media.ts reads them).
    const stageSeconds: Record<string, number> = {};
    let stageStarted = Date.now();
    const progress = (s: string, p: number) => {
      const changed = s !== stage;
      if (changed) {
        stageSeconds[stage] = (stageSeconds[stage] ?? 0) + (Date.now() - stageStarted) / 1000;
        stageStarted = Date.now();
      }
      stage = s;
      percent = Math.max(0, Math.min(100, p));
      // Progress is reported through heartbeats; the log gets every 10 % and every stage change.
      if (percent - lastLogged >= 10 || changed) {
        lastLogged = percent;
        log.info("progress", { stage, percent: Math.round(percent) });
      }
    };
    const heartbeats = this.heartbeatLoop(job, controller, () => ({ stage, percent }), log);
    log.info("job claimed", { source_type: job.source.type });
    const started = Date.now();
    try {
      await runJob({
        job,
        api: this.api,
        workDir,
        log,
        signal: controller.signal,
        hw: this.hw,
        pipeline: this.config.pipeline,
        apiOrigin: this.config.apiOrigin,
        allowLoopbackUrls: this.config.allowLoopbackUrls,
        resolver: this.config.resolver,
        models: this.config.models,
        progress,
      });
      stageSeconds[stage] = (stageSeconds[stage] ?? 0) + (Date.now() - stageStarted) / 1000;
      log.info("job completed", { seconds: (Date.now() - started) / 1000, stage_seconds: stageSeconds });
    } catch (err) {
      await this.report(job, controller, err, log);
    } finally {
      this.running.delete(job.lease.id);
      controller.abort("done");
      await heartbeats;
      if (!this.config.keepWork) await cleanWorkDir(workDir).catch(() => {});
    }
  }

  private async report(job: ClaimedJob, controller: AbortController, err: unknown, log: Logger): Promise<void> {
    const reason = controller.signal.aborted ? (controller.signal.reason as AbortReason) : null;
    const hostFault = hostFaultOf(err);
    try {
      if (reason === "lease_lost" || err instanceof LeaseLostError) {
        log.warn("lease lost; dropping the job (another runner has it)");
      } else if (err instanceof JobStopped) {
        // The API has already failed the session; a report now would only be refused.
        log.warn("job stopped by the API", { error: err.message });
      } else if (reason === "shutdown" || reason === "fatal") {
        // Handed back so another runner can take it at once (after a revoked token this is refused,
        // and the lease runs out instead).
        await this.api.release(job.id, job.lease.id, reason === "shutdown" ? "runner shutting down" : "runner stopping on a fatal error");
        log.warn("job handed back", { reason });
      } else if (reason === "cancel") {
        await this.api.fail(job.id, job.lease.id, "unknown", "Processing was cancelled by the operator.");
        log.warn("job cancelled on request");
      } else if (hostFault) {
        // The video is not at fault, and this host can run no job: hand it back for a healthy
        // runner and stop, rather than fail every job this host claims.
        await this.api.release(job.id, job.lease.id, "the runner's host is faulty");
        log.error("this host cannot run jobs (media tools or work directory); handing the job back and exiting", { error: hostFault.message });
        this.stopFatally(hostFault);
      } else if (err instanceof CompletionNotReported) {
        await this.api.release(job.id, job.lease.id, "the finished result could not be reported");
        log.error("job handed back: its result could not be reported", { error: err.message });
      } else if (err instanceof JobFailure) {
        await this.api.fail(job.id, job.lease.id, err.code, err.message);
        log.warn("job failed", { code: err.code, error: err.message, ...(err.detail ? { detail: err.detail } : {}) });
      } else {
        await this.api.fail(job.id, job.lease.id, "unknown", "Processing failed unexpectedly.");
        log.error("job failed unexpectedly", { error: (err as Error)?.stack ?? String(err) });
      }
    } catch (reportErr) {
      // The lease will expire and the job will be re-claimed; nothing is lost.
      log.error("could not report the job's outcome", { error: (reportErr as Error).message });
    }
  }

  private async heartbeatLoop(job: ClaimedJob, controller: AbortController, current: () => { stage: string; percent: number }, log: Logger) {
    let expiresAt = job.lease.expires_at;
    while (!controller.signal.aborted) {
      // Half the remaining lease, at most 30 s: the expiry is on the API's clock, and a runner whose
      // clock runs minutes behind would otherwise sleep past it.
      const untilExpiry = expiresAt * 1000 - Date.now();
      await sleep(Math.min(HEARTBEAT_MAX_MS, Math.max(HEARTBEAT_MIN_MS, untilExpiry / 2)), controller.signal);
      if (controller.signal.aborted) return;
      try {
        const answer = await this.api.heartbeat(job.id, job.lease.id, current());
        expiresAt = answer.lease_expires_at;
        if (answer.cancel) controller.abort("cancel" satisfies AbortReason);
      } catch (err) {
        if (err instanceof LeaseLostError) controller.abort("lease_lost" satisfies AbortReason);
        else if (err instanceof FatalRunnerError) controller.abort("fatal" satisfies AbortReason);
        else log.warn("heartbeat failed; will retry", { error: (err as Error).message });
      }
    }
  }
}
