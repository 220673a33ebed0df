// The job lifecycle: prepare (queue consumer) → claim (runner, leased) →
// heartbeat → complete | fail, plus the sweeps. Every transition is a
// conditional write, so two runners can never hold one job and a late or
// repeated report changes nothing. Dependencies come in as `LifecycleDeps`.
import { and, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import { boxScoresFromShots, SHOT_ROLES, shotAdmits } from "../../contract/box-score";
import { measuredCostNotCoveredMessage } from "../../contract/failure-messages";
import { DEFAULT_SUBMIT_OPTIONS, type Roster, type SubmitOptions } from "../../contract/job-options";
import type { ClaimedJob, JobResult, RunnerAnswer, SessionErrorCode } from "../../contract/runner-api";
import { highlights, jobs, players, sessions, shots, uploads, usageEvents } from "../../drizzle/schema";
import type { Database, Env } from "../env";
import { ApiError } from "../errors";
import { insertWhere, statement } from "../lib/sql";
import { newId } from "../ids";
import { costCents, planSettle, settleStatements, voidHoldWrite, type RaiseOutcome, type SettlePlan } from "./billing";

/** A lease lasts this long; runners heartbeat at about half of it. */
export const LEASE_SECONDS = 120;
/** Claims of one job (lease expiries included) before it fails with `unknown`. */
export const MAX_ATTEMPTS = 3;
/** A job that reports nothing for this long fails with `timeout`. */
export const JOB_TIMEOUT_SECONDS = 24 * 3600;

export interface LifecycleDeps {
  db: Database;
  env: Env;
  now: () => number;
  /** Lease length in seconds (LEASE_SECONDS unless configured). */
  leaseSeconds: number;
  /** Raises the session's hold to the cost of `measuredSeconds` if the balance covers it (billing.ts `raiseHold`). */
  raiseHold(sessionId: string, measuredSeconds: number): Promise<RaiseOutcome>;
  /** Settles the session's hold for `measuredSeconds` if still held, then the auto-recharge step (billing.ts `settleHold`). */
  settleHold(sessionId: string, measuredSeconds: number): Promise<void>;
  /** The auto-recharge step after a settle made in the batch that stored the result (auto-recharge.ts `rechargeIfDue`). */
  rechargeIfDue(orgId: string): Promise<void>;
  voidHold(sessionId: string): Promise<void>;
  emitSessionEvent(sessionId: string, type: "session.processed" | "session.failed"): Promise<void>;
  /** A URL the runner can GET (with Range) for an uploaded object. */
  signedDownloadUrl(r2Key: string): Promise<string>;
}

type SessionRow = typeof sessions.$inferSelect;
type JobRow = typeof jobs.$inferSelect;

const FINAL = ["processed", "failed"] as const;

// ------------------------------------------------------------------ failing

/**
 * Fails a session that is not final yet: sets `error`, voids the hold, emits
 * `session.failed`. Used by every failure path (source checks, runner
 * reports, lease exhaustion, the 24-hour sweep, the dead-letter queue).
 * Idempotent: a second call finds the session final and only re-runs the
 * idempotent follow-ups (void, event) in case an earlier call was cut short.
 */
export async function failSession(
  deps: LifecycleDeps,
  sessionId: string,
  code: SessionErrorCode,
  message: string,
  /**
   * A runner's own report: the writes happen only while it holds this lease, and the failed job
   * keeps the lease id so a repeated report is recognised.
   */
  lease?: { jobId: string; leaseId: string },
): Promise<boolean> {
  const now = deps.now();
  const holdsLease = lease ? sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${lease.jobId} AND lease_id = ${lease.leaseId} AND status = 'leased')` : undefined;
  // Session, job and hold in one D1 transaction: a job is never `failed` under a session still
  // running, and a `failed` session never holds credit (the spec: "hold voided").
  const [changed] = await deps.db.batch([
    deps.db
      .update(sessions)
      .set({ status: "failed", errorCode: code, errorMessage: message, updated: now, completedAt: now })
      .where(and(eq(sessions.id, sessionId), sql`${sessions.status} NOT IN ('processed', 'failed')`, holdsLease))
      .returning({ id: sessions.id }),
    lease
      ? deps.db
          .update(jobs)
          .set({ status: "failed", leaseExpiresAt: null, updated: now })
          .where(and(eq(jobs.id, lease.jobId), eq(jobs.leaseId, lease.leaseId), eq(jobs.status, "leased")))
      : deps.db
          .update(jobs)
          .set({ status: "failed", leaseId: null, leaseExpiresAt: null, updated: now })
          .where(and(eq(jobs.sessionId, sessionId), sql`${jobs.status} NOT IN ('done', 'failed')`)),
    voidHoldWrite(deps.db, sessionId, now, sql`EXISTS (SELECT 1 FROM sessions WHERE id = ${sessionId} AND status = 'failed')`),
  ]);
  const session = await deps.db.select().from(sessions).where(eq(sessions.id, sessionId)).get();
  if (!session || session.status !== "failed") return false;
  // Idempotent: finishes a void an earlier call's batch did not make (a session failed before the void joined it).
  await deps.voidHold(sessionId);
  if (code === "video_too_large" && session.uploadId) await deleteUploadedBytes(deps, session);
  await deps.emitSessionEvent(sessionId, "session.failed");
  return changed.length > 0;
}

async function deleteUploadedBytes(deps: LifecycleDeps, session: SessionRow) {
  const upload = await deps.db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, session.uploadId!), eq(uploads.orgId, session.orgId)))
    .get();
  if (!upload) return;
  await deps.env.MEDIA.delete(upload.r2Key);
  await deps.db.update(uploads).set({ status: "deleted" }).where(eq(uploads.id, upload.id));
}

// ------------------------------------------------------------------ prepare

export interface PreparedSource {
  /** What the runner downloads: an R2 key (signed at claim) or an external URL. */
  downloadRef: string;
}

/** Checks a queued session's source and makes its job claimable (status `ready`). */
export async function markJobReady(deps: LifecycleDeps, jobId: string, source: PreparedSource): Promise<void> {
  await deps.db
    .update(jobs)
    .set({ status: "ready", downloadUrl: source.downloadRef, updated: deps.now() })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "pending")));
}

// ------------------------------------------------------------------ claim

/**
 * Leases the oldest claimable job to a runner in one conditional UPDATE, and
 * moves its session `queued → processing` in the same transaction. A job whose
 * lease expired is claimable again until it has used MAX_ATTEMPTS.
 */
export async function claimNextJob(deps: LifecycleDeps, runnerTokenId: string): Promise<ClaimedJob | null> {
  const now = deps.now();
  const leaseId = newId("lease");
  const expiresAt = now + deps.leaseSeconds;
  const claimable = sql`(${jobs.status} = 'ready' OR (${jobs.status} = 'leased' AND ${jobs.leaseExpiresAt} < ${now} AND ${jobs.attempts} < ${MAX_ATTEMPTS}))`;
  const [claimed] = await deps.db.batch([
    deps.db
      .update(jobs)
      .set({
        status: "leased",
        leaseId,
        leaseExpiresAt: expiresAt,
        runnerTokenId,
        attempts: sql`${jobs.attempts} + 1`,
        progressStage: "claimed",
        progressPercent: 0,
        updated: now,
      })
      .where(and(sql`${jobs.id} = (SELECT id FROM jobs WHERE ${claimable} ORDER BY created, id LIMIT 1)`, claimable))
      .returning(),
    deps.db
      .update(sessions)
      .set({ status: "processing", updated: now })
      .where(and(sql`${sessions.id} IN (SELECT session_id FROM jobs WHERE lease_id = ${leaseId})`, eq(sessions.status, "queued"))),
  ]);
  const job = claimed[0];
  if (!job) return null;
  const session = await deps.db.select().from(sessions).where(eq(sessions.id, job.sessionId)).get();
  if (!session) return null;
  const ref = job.downloadUrl ?? "";
  const downloadUrl = /^https?:\/\//.test(ref) ? ref : await deps.signedDownloadUrl(ref);
  return {
    id: job.id,
    session: job.sessionId,
    lease: { id: leaseId, expires_at: expiresAt },
    attempt: job.attempts,
    source: { type: session.sourceType, download_url: downloadUrl },
    // Stored from the validated submit body; the defaults fill sessions stored before an option existed.
    options: { ...DEFAULT_SUBMIT_OPTIONS, ...session.options } as SubmitOptions,
    rosters: (session.rosters as Roster[] | null) ?? null,
  };
}

/** The job, if `leaseId` is its current, unexpired lease; else 409 lease_lost. */
export async function requireLease(deps: Pick<LifecycleDeps, "db">, jobId: string, leaseId: string): Promise<JobRow> {
  const job = await deps.db.select().from(jobs).where(eq(jobs.id, jobId)).get();
  if (!job) throw new ApiError("resource_missing", `No such job: '${jobId}'.`, { param: "id" });
  if (job.status !== "leased" || job.leaseId !== leaseId) {
    throw new ApiError("lease_lost", "This lease is no longer valid: the job was re-assigned, finished or failed. Drop the job.");
  }
  return job;
}

// ------------------------------------------------------------------ heartbeat

export interface HeartbeatAnswer {
  lease_expires_at: number;
  cancel: boolean;
}

export async function heartbeat(
  deps: LifecycleDeps,
  jobId: string,
  leaseId: string,
  progress: { stage?: string; percent?: number },
): Promise<HeartbeatAnswer> {
  const now = deps.now();
  const expiresAt = now + deps.leaseSeconds;
  const [row] = await deps.db
    .update(jobs)
    .set({
      leaseExpiresAt: expiresAt,
      updated: now,
      ...(progress.stage !== undefined ? { progressStage: progress.stage } : {}),
      ...(progress.percent !== undefined ? { progressPercent: Math.round(progress.percent) } : {}),
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.leaseId, leaseId), eq(jobs.status, "leased")))
    .returning({ cancel: jobs.cancelRequested });
  if (!row) await requireLease(deps, jobId, leaseId); // throws the precise error
  return { lease_expires_at: expiresAt, cancel: Boolean(row?.cancel) };
}

// ------------------------------------------------------------------ measured

/**
 * The runner has probed the source (before any analysis): the hold becomes the measured cost, so
 * the settle at completion, which never exceeds the hold, charges the whole measured length. When
 * the balance cannot cover it, the session fails here under the runner's lease (code `unknown`, a
 * sentence with the length, the cost and the credit; hold voided, nothing charged, the upload
 * kept for a resubmit) and the answer tells the runner to stop. Measured seconds are whole seconds,
 * a started one counting as one, as at complete. A repeated report with the same lease gets the
 * same answer.
 */
export async function measureJob(deps: LifecycleDeps, jobId: string, leaseId: string, durationSeconds: number): Promise<RunnerAnswer<"measured">> {
  const measured = Math.ceil(durationSeconds);
  const job = await deps.db.select().from(jobs).where(eq(jobs.id, jobId)).get();
  if (!job) throw new ApiError("resource_missing", `No such job: '${jobId}'.`, { param: "id" });
  // The refusal's answer was lost and the runner asks again: the job failed under this very lease.
  if (job.status === "failed" && job.leaseId === leaseId) return { proceed: false, needed_cents: costCents(measured), held_cents: 0 };
  await requireLease(deps, jobId, leaseId);
  let outcome: RaiseOutcome;
  try {
    outcome = await deps.raiseHold(job.sessionId, measured);
  } catch (err) {
    // The hold left `held` meanwhile (the session failed by a sweep): that is a lost lease, not a fault.
    await requireLease(deps, jobId, leaseId);
    throw err;
  }
  const holdsLease = sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${jobId} AND lease_id = ${leaseId} AND status = 'leased')`;
  // The session shows its measured length from now on; a session failed below shows the length its message names.
  await deps.db
    .update(sessions)
    .set({ durationSeconds: measured, updated: deps.now() })
    .where(and(eq(sessions.id, job.sessionId), sql`${sessions.status} NOT IN ('processed', 'failed')`, holdsLease));
  if (outcome.covered) return { proceed: true, needed_cents: costCents(measured), held_cents: outcome.heldCents };
  const message = measuredCostNotCoveredMessage(measured, outcome.neededCents, outcome.availableCents + outcome.heldCents);
  await failSession(deps, job.sessionId, "unknown", message, { jobId, leaseId });
  return { proceed: false, needed_cents: outcome.neededCents, held_cents: 0 };
}

// ------------------------------------------------------------------ complete

export function outputKey(sessionId: string, name: string): string {
  return `sessions/${sessionId}/outputs/${name}`;
}

/** Every output file a result names, with the field that names it. */
function outputFilesOf(result: JobResult): Array<{ name: string; param: string }> {
  const files: Array<{ name: string; param: string }> = [];
  const add = (name: string | null | undefined, param: string) => name && files.push({ name, param });
  for (const k of ["preview", "1080p", "720p", "360p"] as const) add(result.video[k], `video.${k}`);
  for (const [k, v] of Object.entries(result.artifacts)) add(v, `artifacts.${k}`);
  result.highlights.forEach((h, i) => {
    for (const [k, v] of Object.entries(h.video)) add(v, `highlights.${i}.video.${k}`);
    for (const [k, v] of Object.entries(h.preview)) add(v, `highlights.${i}.preview.${k}`);
  });
  return files;
}

/**
 * A session is only charged for results that exist: every file the result names must have been
 * uploaded completely (an unfinished tus upload has no object yet). One R2 listing of the session's
 * outputs, not a request per file.
 */
async function assertOutputsStored(deps: LifecycleDeps, sessionId: string, result: JobResult): Promise<void> {
  const files = outputFilesOf(result);
  if (files.length === 0) return;
  const prefix = outputKey(sessionId, "");
  const stored = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await deps.env.MEDIA.list({ prefix, cursor });
    for (const o of page.objects) stored.add(o.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const missing = files.find((f) => !stored.has(outputKey(sessionId, f.name)));
  if (missing) {
    throw new ApiError("parameter_invalid", `Output '${missing.name}' was never uploaded completely: send it through POST /runner/v1/jobs/{id}/outputs before completing the job.`, {
      param: missing.param,
    });
  }
}

/**
 * Cross-links resolve inside the result, and a shot names a player only in a role it admits
 * (contract/box-score.ts), so the stats derived from the shots count every role they name.
 */
function checkCrossLinks(result: JobResult) {
  const shotKeys = new Set(result.shots.map((s) => s.key));
  const highlightKeys = new Set(result.highlights.map((h) => h.key));
  const playerKeys = new Set(result.players.map((p) => p.key));
  const bad = (message: string, param: string) => {
    throw new ApiError("parameter_invalid", message, { param });
  };
  if (shotKeys.size !== result.shots.length) bad("Shot keys must be unique.", "shots");
  if (highlightKeys.size !== result.highlights.length) bad("Highlight keys must be unique.", "highlights");
  if (playerKeys.size !== result.players.length) bad("Player keys must be unique.", "players");
  result.shots.forEach((s, i) => {
    if (s.highlight !== null && !highlightKeys.has(s.highlight)) bad(`Shot ${s.key} names unknown highlight ${s.highlight}.`, `shots.${i}.highlight`);
    for (const role of SHOT_ROLES) {
      const p = s.players[role];
      if (p === null) continue;
      if (!playerKeys.has(p)) bad(`Shot ${s.key} names unknown ${role} ${p}.`, `shots.${i}.players.${role}`);
      // The box score would not count it, and a shot's players must agree with the players' stats.
      if (!shotAdmits(s, role)) bad(`Shot ${s.key} names ${role} ${p}, but ${role === "assister" ? "only a made field goal has an assister" : "only a missed shot has a rebounder"}.`, `shots.${i}.players.${role}`);
    }
  });
  result.highlights.forEach((h, i) => {
    if (!shotKeys.has(h.shot)) bad(`Highlight ${h.key} names unknown shot ${h.shot}.`, `highlights.${i}.shot`);
    if (h.player !== null && !playerKeys.has(h.player)) bad(`Highlight ${h.key} names unknown player ${h.player}.`, `highlights.${i}.player`);
  });
}

/**
 * Stores a successful result. Step 1 is one D1 transaction whose writes are
 * all conditional on the caller still holding the lease, with the job flip to
 * `done` last; it settles the hold too, so a `processed` session carries its
 * `cost_cents` (SPEC: "cost_cents final"). Steps 2–3 (the settle, should the
 * credit have moved between planning it and the batch, and the event) are
 * idempotent, so a repeated report with the same lease finishes them if an
 * earlier attempt was cut short, and a report with a stale lease changes nothing.
 */
export async function completeJob(deps: LifecycleDeps, jobId: string, leaseId: string, result: JobResult): Promise<void> {
  checkCrossLinks(result);
  const existing = await deps.db.select().from(jobs).where(eq(jobs.id, jobId)).get();
  if (!existing) throw new ApiError("resource_missing", `No such job: '${jobId}'.`, { param: "id" });
  const alreadyDone = existing.status === "done" && existing.leaseId === leaseId;
  const measured = Math.ceil(result.video.duration_seconds);
  let settledInBatch = false;
  if (!alreadyDone) {
    await requireLease(deps, jobId, leaseId);
    await assertOutputsStored(deps, existing.sessionId, result);
    const settle = await planSettle(deps.db, existing.sessionId, measured, deps.now());
    settledInBatch = await storeResult(deps, existing, leaseId, result, settle);
    const after = await deps.db.select({ status: jobs.status, leaseId: jobs.leaseId }).from(jobs).where(eq(jobs.id, jobId)).get();
    if (after?.status !== "done" || after.leaseId !== leaseId) {
      throw new ApiError("lease_lost", "The lease moved on while the result was being stored; nothing was changed.");
    }
  }
  // Settled with the result: only the step after it. Else (a repeated report, a credit that moved
  // after planning) the settle, which does nothing to a hold already settled.
  if (settledInBatch) await deps.rechargeIfDue(existing.orgId);
  else await deps.settleHold(existing.sessionId, measured);
  await deps.emitSessionEvent(existing.sessionId, "session.processed");
}

/** Writes the result and, with `settle`, the settle of its hold, in one batch; true when the hold was settled there. */
async function storeResult(deps: LifecycleDeps, job: JobRow, leaseId: string, result: JobResult, settle: SettlePlan | null): Promise<boolean> {
  const now = deps.now();
  const sessionId = job.sessionId;
  const orgId = job.orgId;
  const key = (name: string | null) => (name === null ? null : outputKey(sessionId, name));
  const holdsLease = sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${job.id} AND lease_id = ${leaseId} AND status = 'leased')`;

  const playerIds = new Map(result.players.map((p) => [p.key, newId("plr")]));
  const shotIds = new Map(result.shots.map((s) => [s.key, newId("shot")]));
  const highlightIds = new Map(result.highlights.map((h) => [h.key, newId("hl")]));
  const pid = (k: string | null) => (k === null ? null : playerIds.get(k)!);

  const attributed = result.shots.map((s) => ({ ...s, players: { scorer: pid(s.players.scorer), assister: pid(s.players.assister), rebounder: pid(s.players.rebounder) } }));
  const box = boxScoresFromShots(attributed, [...playerIds.values()]);

  // `video.url` is the original: the uploaded object. Link sources are not
  // copied into storage, so theirs stays null (the link is in `source.url`).
  const session = await deps.db.select().from(sessions).where(eq(sessions.id, sessionId)).get();
  const originalRef = session?.sourceType === "upload" && session.uploadId
    ? (await deps.db.select({ r2Key: uploads.r2Key }).from(uploads).where(eq(uploads.id, session.uploadId)).get())?.r2Key ?? null
    : null;

  // Rows are inserted through INSERT … SELECT … WHERE <lease held>, so a
  // stale runner's batch inserts nothing.
  const statements: D1PreparedStatement[] = [
    statement(deps.db, deps.db.delete(shots).where(and(eq(shots.sessionId, sessionId), holdsLease))),
    statement(deps.db, deps.db.delete(highlights).where(and(eq(highlights.sessionId, sessionId), holdsLease))),
    statement(deps.db, deps.db.delete(players).where(and(eq(players.sessionId, sessionId), holdsLease))),
    ...result.players.map((p, i) =>
      insertWhere(deps.db, deps.db.insert(players).values({
        id: playerIds.get(p.key)!, sessionId, orgId, position: i, name: p.name, jersey: p.jersey,
        userId: p.user_id, teamId: p.team_id, metadata: p.metadata, stats: { ...box.players.get(playerIds.get(p.key)!)! },
      }), holdsLease),
    ),
    ...result.shots.map((s, i) =>
      insertWhere(deps.db, deps.db.insert(shots).values({
        id: shotIds.get(s.key)!, sessionId, orgId, position: i, shotIndex: s.index, startSeconds: s.start_seconds,
        endSeconds: s.end_seconds, made: s.made, points: s.points, type: s.type, isThreePoint: s.is_three_point,
        isFreeThrow: s.is_free_throw, isFouled: s.is_fouled, location: s.location, court: s.court, excitementScore: s.excitement_score,
        scorerId: pid(s.players.scorer), assisterId: pid(s.players.assister), rebounderId: pid(s.players.rebounder),
        highlightId: s.highlight === null ? null : highlightIds.get(s.highlight)!,
      }), holdsLease),
    ),
    ...result.highlights.map((h, i) =>
      insertWhere(deps.db, deps.db.insert(highlights).values({
        id: highlightIds.get(h.key)!, sessionId, orgId, position: i, shotId: shotIds.get(h.shot)!,
        shotIndex: h.shot_index, lengthSeconds: h.length_seconds, isLowlight: h.is_lowlight, isManual: h.is_manual,
        playerId: pid(h.player), video: Object.fromEntries(Object.entries(h.video).map(([k, v]) => [k, key(v)])),
        preview: { default: key(h.preview.default), horizontal: key(h.preview.horizontal) }, created: now,
      }), holdsLease),
    ),
    statement(deps.db, deps.db
      .update(sessions)
      .set({
        status: "processed",
        durationSeconds: Math.ceil(result.video.duration_seconds),
        runVersion: result.run_version,
        video: {
          url: originalRef,
          preview_url: key(result.video.preview),
          "1080p": key(result.video["1080p"]),
          "720p": key(result.video["720p"]),
          "360p": key(result.video["360p"]),
          width: result.video.width,
          height: result.video.height,
          fps: result.video.fps,
        },
        artifacts: {
          actions: key(result.artifacts.actions),
          balls: key(result.artifacts.balls),
          hoops: key(result.artifacts.hoops),
          clusters: key(result.artifacts.clusters),
        },
        totals: { ...box.totals },
        shotCount: result.shots.length,
        highlightCount: result.highlights.length,
        playerCount: result.players.length,
        errorCode: null,
        errorMessage: null,
        updated: now,
        completedAt: now,
      })
      .where(and(eq(sessions.id, sessionId), eq(sessions.status, "processing"), holdsLease))),
    // The settle, in the same transaction: `processed` and `cost_cents` land together.
    ...(settle ? settleStatements(deps.db, settle, now, holdsLease) : []),
    // Last: flipping the job releases the lease that every write above checked.
    statement(deps.db, deps.db
      .update(jobs)
      .set({ status: "done", progressStage: "done", progressPercent: 100, leaseExpiresAt: null, updated: now })
      .where(and(eq(jobs.id, job.id), eq(jobs.leaseId, leaseId), eq(jobs.status, "leased")))),
  ];
  // One D1 batch is one transaction: all of it lands, or none.
  const results = await deps.db.$client.batch(statements);
  // The usage event's move is the settle's last write, just before the job's flip.
  return !!settle && results[results.length - 2].meta.changes > 0;
}

// ------------------------------------------------------------------ fail

/**
 * A runner reports failure: session and job fail together, conditional on its lease. The follow-ups
 * (void, event) are idempotent, and a repeated report with the same lease re-runs them, finishing
 * what an earlier report was cut short of. The cron's reconcile step covers a runner that never
 * repeats it.
 */
export async function failJob(deps: LifecycleDeps, jobId: string, leaseId: string, code: SessionErrorCode, message: string): Promise<void> {
  const job = await deps.db.select().from(jobs).where(eq(jobs.id, jobId)).get();
  if (!job) throw new ApiError("resource_missing", `No such job: '${jobId}'.`, { param: "id" });
  // A repeated report with the same lease finds everything failed and re-runs only the follow-ups.
  const repeated = job.status === "failed" && job.leaseId === leaseId;
  if (!repeated) await requireLease(deps, jobId, leaseId);
  await failSession(deps, job.sessionId, code, message, repeated ? undefined : { jobId, leaseId });
}

/**
 * A runner hands a job back (shutting down). The job is claimable again at
 * once, and the hand-back does not count as one of its MAX_ATTEMPTS: only
 * leases that expire (a runner that vanished) do. The session goes back to
 * `queued` in the same transaction: a `ready` job is waiting, and so is its
 * session (the pairs are listed in docs/sessions.md).
 */
export async function releaseJob(deps: LifecycleDeps, jobId: string, leaseId: string): Promise<void> {
  const now = deps.now();
  const holdsLease = sql`EXISTS (SELECT 1 FROM jobs WHERE id = ${jobId} AND lease_id = ${leaseId} AND status = 'leased')`;
  const [, released] = await deps.db.batch([
    // First, while the lease is still there to check.
    deps.db
      .update(sessions)
      .set({ status: "queued", updated: now })
      .where(and(sql`${sessions.id} = (SELECT session_id FROM jobs WHERE id = ${jobId})`, eq(sessions.status, "processing"), holdsLease)),
    deps.db
      .update(jobs)
      .set({
        status: "ready",
        leaseId: null,
        leaseExpiresAt: null,
        runnerTokenId: null,
        attempts: sql`max(${jobs.attempts} - 1, 0)`,
        progressStage: "released",
        updated: now,
      })
      .where(and(eq(jobs.id, jobId), eq(jobs.leaseId, leaseId), eq(jobs.status, "leased")))
      .returning({ id: jobs.id }),
  ]);
  if (released.length === 0) await requireLease(deps, jobId, leaseId);
}

/** Asks the runner holding a job to stop (answered on its next heartbeat). */
export async function requestCancel(deps: LifecycleDeps, sessionId: string): Promise<void> {
  await deps.db.update(jobs).set({ cancelRequested: true, updated: deps.now() }).where(eq(jobs.sessionId, sessionId));
}

// ------------------------------------------------------------------ sweeps

/**
 * Run by the cron. Fails sessions whose job has reported nothing for 24 hours
 * or has not finished 24 hours after submit (`timeout`), and jobs whose lease
 * expired after their last allowed attempt (`unknown`); both still void the
 * hold and emit `session.failed`. Re-sends the queue message of jobs stranded
 * in `pending`, and settles or voids the hold of sessions that finished while
 * their report was cut short.
 */
export async function sweepJobs(deps: LifecycleDeps): Promise<{ timedOut: number; exhausted: number; requeued: number; reconciled: number }> {
  const now = deps.now();
  const stale = await deps.db
    .select({ sessionId: jobs.sessionId })
    .from(jobs)
    // Silent for 24 hours, or submitted more than 24 hours ago: a runner whose work hangs keeps
    // heartbeating, and its lease alone would keep the session processing (and the hold held) forever.
    .where(and(inArray(jobs.status, ["pending", "ready", "leased"]), or(lt(jobs.updated, now - JOB_TIMEOUT_SECONDS), lt(jobs.created, now - JOB_TIMEOUT_SECONDS))))
    .limit(200);
  let timedOut = 0;
  for (const { sessionId } of stale) {
    if (await sweepStep(sessionId, () => failSession(deps, sessionId, "timeout", "The job did not report back within 24 hours."))) timedOut++;
  }
  const exhausted = await deps.db
    .select({ sessionId: jobs.sessionId, attempts: jobs.attempts })
    .from(jobs)
    .where(and(eq(jobs.status, "leased"), lt(jobs.leaseExpiresAt, now), sql`${jobs.attempts} >= ${MAX_ATTEMPTS}`))
    .limit(200);
  let exhaustedCount = 0;
  for (const { sessionId, attempts } of exhausted) {
    const message = `Processing stopped reporting ${attempts} times; giving up.`;
    if (await sweepStep(sessionId, () => failSession(deps, sessionId, "unknown", message))) exhaustedCount++;
  }
  return { timedOut, exhausted: exhaustedCount, requeued: await requeueStrandedJobs(deps, now), reconciled: await reconcileFinalSessions(deps) };
}

/** How far back the cron looks for finished sessions whose event was never stored. */
export const EVENT_CATCH_UP_SECONDS = 48 * 3600;

/**
 * Finishes what a report or sweep that was cut short after the state change left undone, for
 * sessions that are over (`processed` or `failed`): a hold still `held` is settled or voided, and a
 * missing `session.processed` / `session.failed` event (its queue send failed) is emitted. Every
 * step is idempotent. Nothing stays held, and no finished session goes without its event.
 */
async function reconcileFinalSessions(deps: LifecycleDeps): Promise<number> {
  const stuck = await deps.db
    .select({ sessionId: sessions.id, status: sessions.status, durationSeconds: sessions.durationSeconds })
    .from(usageEvents)
    .innerJoin(sessions, eq(sessions.id, usageEvents.sessionId))
    .where(and(eq(usageEvents.status, "held"), inArray(sessions.status, [...FINAL])))
    .limit(200);
  const now = deps.now();
  // Uses the (status, updated) index; a minute's grace leaves reports in flight alone.
  const eventless = await deps.db
    .select({ sessionId: sessions.id, status: sessions.status, durationSeconds: sessions.durationSeconds })
    .from(sessions)
    .where(
      and(
        inArray(sessions.status, [...FINAL]),
        gte(sessions.updated, now - EVENT_CATCH_UP_SECONDS),
        lt(sessions.updated, now - 60),
        sql`NOT EXISTS (SELECT 1 FROM events e WHERE e.org_id = ${sessions.orgId}
          AND e.type = CASE ${sessions.status} WHEN 'processed' THEN 'session.processed' ELSE 'session.failed' END
          AND json_extract(e.data, '$.object.id') = ${sessions.id})`,
      ),
    )
    .limit(200);
  const todo = new Map([...stuck, ...eventless].map((s) => [s.sessionId, s]));
  let reconciled = 0;
  for (const s of todo.values()) {
    const done = await sweepStep(s.sessionId, async () => {
      if (s.status === "processed") {
        await deps.settleHold(s.sessionId, s.durationSeconds ?? 0);
        await deps.emitSessionEvent(s.sessionId, "session.processed");
      } else {
        await deps.voidHold(s.sessionId);
        await deps.emitSessionEvent(s.sessionId, "session.failed");
      }
      return true;
    });
    if (done) reconciled++;
  }
  return reconciled;
}

/** One session's step of a sweep; a failure is logged and left to the next run (the steps are idempotent). */
async function sweepStep(sessionId: string, step: () => Promise<boolean>): Promise<boolean> {
  try {
    return await step();
  } catch (err) {
    console.error(JSON.stringify({ level: "error", msg: "sweep step failed", session: sessionId, error: String(err) }));
    return false;
  }
}

/** A job still `pending` this long after submit lost its queue message. */
export const STRANDED_AFTER_SECONDS = 15 * 60;

/**
 * A submit whose session and hold committed but whose queue send failed (and
 * that the client did not retry with its Idempotency-Key) leaves a `pending`
 * job nobody will prepare. Send its message once more, rather than let it
 * wait for the 24-hour timeout. Preparation is idempotent, so a message that
 * was only slow does no harm.
 */
async function requeueStrandedJobs(deps: LifecycleDeps, now: number): Promise<number> {
  const stranded = await deps.db
    .update(jobs)
    .set({ progressStage: "requeued" })
    .where(and(eq(jobs.status, "pending"), lt(jobs.created, now - STRANDED_AFTER_SECONDS), sql`${jobs.progressStage} IS NULL`))
    .returning({ id: jobs.id, sessionId: jobs.sessionId });
  for (const job of stranded) await deps.env.JOBS_QUEUE.send({ type: "prepare", session_id: job.sessionId, job_id: job.id });
  return stranded.length;
}

export function isFinal(status: string): boolean {
  return (FINAL as readonly string[]).includes(status);
}
