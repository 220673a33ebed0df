// POST /v1/sessions as recoverable steps:
//   1. commit   — session row + `held` usage event + `pending` job row, in one
//                 D1 batch gated on the available balance (all or nothing);
//   2. enqueue  — `{type: "prepare", session_id, job_id}` onto the jobs queue;
//   3. store    — the response saved under the Idempotency-Key, if any.
// The ids are chosen before step 1 and kept in the idempotency record, so a
// retry after a failure anywhere resumes: a committed session is found by its
// id (D1 is the recovery point of step 1), `enqueued` is checkpointed after
// step 2, and a stored response is replayed.
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import { groups, jobs, sessions, uploads, usageEvents } from "../../drizzle/schema";
import type { Recovery, StoredResponse } from "../durable-objects/idempotency-key";
import type { Database } from "../env";
import { ApiError, notFound } from "../errors";
import { isIdOf, newId, sha256Hex } from "../ids";
import { insertWhere, statement } from "../lib/sql";
import type { SubmitSessionInput } from "../schemas/session-create";
import { availableCentsSql, costCents, estimateSeconds, getBalance, holdExists, placeHold } from "./billing";
import { canonicalJson, runIdempotent, type IdempotencyStore } from "./idempotency";
import { OutboundError, type HttpClient } from "./http-client";
import { platformFor } from "./platforms";
import { buildSessionObjects, findSessionRow, type SessionObjectContext, type SessionRow } from "./session-object";
import type { CheckedUrl } from "../../contract/url-policy";
import { MAX_VIDEO_BYTES } from "../../contract/runner-api";

export const DEDUPE_WINDOW_SECONDS = 24 * 3600;
/** The HEAD that reads a link's size at submit: per hop, so a slow host cannot hold a submit for long. */
export const HEAD_TIMEOUT_MS = 5_000;
export const HEAD_MAX_REDIRECTS = 3;

export type SubmitFaultPoint = "before_commit" | "after_commit" | "after_enqueue" | "after_store";

export interface SubmitDeps {
  db: Database;
  queue: Queue<unknown>;
  /** Outbound HTTP and the URL policy (the link check and the HEAD that reads its Content-Length). */
  http: HttpClient;
  now: () => number;
  objects: SessionObjectContext;
  /** The request's Idempotency-Key record, or null without a key. */
  idempotency: IdempotencyStore | null;
  /** Called between the steps; a throw there simulates a crash at that point (tests). */
  fault?: (point: SubmitFaultPoint) => void | Promise<void>;
  waitForInProgressMs?: number;
}

export interface SubmitCaller {
  orgId: string;
  apiKeyId: string | null;
}

export interface SubmitResponse extends StoredResponse {
  replayed: boolean;
}

export interface JobMessage {
  type: "prepare";
  session_id: string;
  job_id: string;
}

interface PlannedSource {
  type: "upload" | "url" | "veo";
  url: string | null;
  uploadId: string | null;
  sizeBytes: number | null;
}

interface SubmitPlan {
  groupId: string;
  source: PlannedSource;
  dedupeKey: string | null;
  estimatedSeconds: number;
  holdCents: number;
}

interface Ids extends Recovery {
  sessionId: string;
  jobId: string;
  usageEventId: string;
}

function badSource(message: string, param = "source"): never {
  throw new ApiError("parameter_invalid", message, { param });
}

async function resolveGroup(db: Database, orgId: string, groupId: string | undefined): Promise<string> {
  if (groupId !== undefined) {
    const row = isIdOf("grp", groupId)
      ? await db.select({ id: groups.id }).from(groups).where(and(eq(groups.orgId, orgId), eq(groups.id, groupId))).get()
      : undefined;
    if (!row) throw notFound("group", groupId, "group");
    return row.id;
  }
  const row = await db.select({ id: groups.id }).from(groups).where(and(eq(groups.orgId, orgId), eq(groups.isDefault, true))).get();
  if (!row) throw new Error(`Organization ${orgId} has no default group`);
  return row.id;
}

function checkOptions(input: SubmitSessionInput): void {
  const { options, rosters } = input;
  if (options.jerseys === "enabled" && !options.has_jerseys) {
    throw new ApiError("parameter_invalid", "`options.jerseys: enabled` needs `options.has_jerseys: true` (numbers cannot be read from plain shirts).", {
      param: "options.jerseys",
    });
  }
  if (rosters && rosters.length > 0) {
    if (options.jerseys === "disabled") {
      throw new ApiError("parameter_invalid", "Rosters are matched by jersey number, so `options.jerseys` must be `auto` or `enabled` when `rosters` is sent.", {
        param: "options.jerseys",
      });
    }
    if (!options.has_jerseys) {
      throw new ApiError("parameter_invalid", "Rosters are matched by jersey number, so `options.has_jerseys` must be true when `rosters` is sent.", {
        param: "options.has_jerseys",
      });
    }
  }
}

/**
 * `Content-Length` of a link, by HEAD, following at most a few redirects and
 * checking every hop against the URL policy; null when unknown (no header,
 * an error status or a network failure: the job preparation reports those).
 */
export async function probeContentLength(deps: Pick<SubmitDeps, "http">, link: CheckedUrl): Promise<number | null> {
  let res: Response;
  try {
    ({ response: res } = await deps.http.fetchPublic(link, {
      param: "source.url",
      method: "HEAD",
      timeoutMs: HEAD_TIMEOUT_MS,
      maxRedirects: HEAD_MAX_REDIRECTS,
    }));
  } catch (err) {
    // Unreachable or slow: the size stays unknown and the job preparation reports the link.
    if (err instanceof OutboundError) return null;
    throw err; // a redirect to a refused address (400), or the resolver down (503)
  }
  await res.body?.cancel();
  const length = Number(res.headers.get("Content-Length"));
  return res.ok && Number.isSafeInteger(length) && length > 0 ? length : null;
}

function tooLarge(bytes: number): never {
  throw new ApiError("video_too_large", `The video is ${bytes} bytes; the limit is ${MAX_VIDEO_BYTES} bytes (10 GB).`, { param: "source" });
}

async function planSource(deps: SubmitDeps, orgId: string, source: SubmitSessionInput["source"]): Promise<PlannedSource> {
  if (source.url !== undefined && source.upload_id !== undefined) badSource("Send either `source.url` or `source.upload_id`, not both.");
  const type = source.type ?? (source.upload_id !== undefined ? "upload" : "url");

  if (type === "upload") {
    if (source.upload_id === undefined) badSource("`source.upload_id` is required when `source.type` is `upload`.", "source.upload_id");
    const upload = isIdOf("up", source.upload_id)
      ? await deps.db.select().from(uploads).where(and(eq(uploads.orgId, orgId), eq(uploads.id, source.upload_id))).get()
      : undefined;
    if (!upload || upload.status === "deleted") throw notFound("upload", source.upload_id, "source.upload_id");
    if (upload.status === "expired") {
      throw new ApiError("upload_expired", `Upload '${upload.id}' expired before it was completed; create a new upload.`, { param: "source.upload_id" });
    }
    if (upload.status !== "complete") {
      throw new ApiError("upload_incomplete", `Upload '${upload.id}' has not finished: send all of its bytes first, then submit again.`, {
        param: "source.upload_id",
      });
    }
    if (upload.size > MAX_VIDEO_BYTES) tooLarge(upload.size);
    return { type: "upload", url: null, uploadId: upload.id, sizeBytes: upload.size };
  }

  if (source.url === undefined) badSource(`\`source.url\` is required when \`source.type\` is \`${type}\`.`, "source.url");
  const checked = await deps.http.checkUrl(source.url, "source.url");
  const { url } = checked;
  const platform = platformFor(url);
  if (platform) {
    // Platform links always take the platform path; the preparation step
    // resolves them to the recording's MP4 (and learns its size then).
    return { type: platform.sourceType, url: url.toString(), uploadId: null, sizeBytes: null };
  }
  if (type !== "url") {
    throw new ApiError("url_not_allowed", `\`source.type\` \`${type}\` needs a link of that platform (e.g. https://app.veo.co/matches/<slug>/).`, {
      param: "source.url",
    });
  }
  const size = await probeContentLength(deps, checked);
  if (size !== null && size > MAX_VIDEO_BYTES) tooLarge(size);
  return { type: "url", url: url.toString(), uploadId: null, sizeBytes: size };
}

/** Same link + options + metadata + group + rosters ⇒ same key (links only; uploads are one-off). */
async function dedupeKeyOf(input: SubmitSessionInput, groupId: string, source: PlannedSource): Promise<string | null> {
  if (source.url === null) return null;
  return sha256Hex(
    canonicalJson({ type: source.type, url: source.url, group: groupId, options: input.options, metadata: input.metadata ?? {}, rosters: input.rosters ?? null }),
  );
}

/** The earlier live session for the same link and settings within the window (failed ones do not count). */
function dedupeMatch(orgId: string, dedupeKey: string, now: number) {
  return and(
    eq(sessions.orgId, orgId),
    eq(sessions.dedupeKey, dedupeKey),
    gt(sessions.created, now - DEDUPE_WINDOW_SECONDS),
    ne(sessions.status, "failed"),
  );
}

async function findDuplicate(db: Database, orgId: string, dedupeKey: string | null, now: number): Promise<SessionRow | null> {
  if (!dedupeKey) return null;
  return (await db.select().from(sessions).where(dedupeMatch(orgId, dedupeKey, now)).orderBy(desc(sessions.created)).limit(1).get()) ?? null;
}

type CommitResult = { kind: "committed"; availableCents: number } | { kind: "duplicate"; row: SessionRow };

/** Step 1: the session, its hold and its job, all or nothing, gated on the balance and the dedupe window. */
async function commit(deps: SubmitDeps, caller: SubmitCaller, input: SubmitSessionInput, plan: SubmitPlan, ids: Ids, now: number): Promise<CommitResult> {
  const { db } = deps;
  const noDuplicate = plan.dedupeKey
    ? sql`not exists (select 1 from ${sessions} where ${dedupeMatch(caller.orgId, plan.dedupeKey, now)})`
    : sql`1`;
  const notYet = sql`not exists (select 1 from ${sessions} where ${sessions.id} = ${ids.sessionId})`;
  const results = await db.$client.batch([
    placeHold(
      db,
      {
        usageEventId: ids.usageEventId,
        orgId: caller.orgId,
        sessionId: ids.sessionId,
        apiKeyId: caller.apiKeyId,
        heldCents: plan.holdCents,
        estimatedSeconds: plan.estimatedSeconds,
      },
      now,
      sql`${noDuplicate} and ${notYet}`,
    ),
    insertWhere(
      db,
      db.insert(sessions).values({
        id: ids.sessionId,
        orgId: caller.orgId,
        groupId: plan.groupId,
        apiKeyId: caller.apiKeyId,
        status: "queued",
        sourceType: plan.source.type,
        sourceUrl: plan.source.url,
        uploadId: plan.source.uploadId,
        metadata: input.metadata ?? {},
        options: input.options,
        rosters: input.rosters ?? null,
        dedupeKey: plan.dedupeKey,
        declaredDurationSeconds: input.duration_seconds ?? null,
        created: now,
        updated: now,
      }),
      sql`${holdExists(ids.sessionId)} and ${notYet}`,
    ),
    insertWhere(
      db,
      db.insert(jobs).values({ id: ids.jobId, sessionId: ids.sessionId, orgId: caller.orgId, status: "pending", created: now, updated: now }),
      sql`${holdExists(ids.sessionId)} and not exists (select 1 from ${jobs} where ${jobs.sessionId} = ${ids.sessionId})`,
    ),
    statement(db, sql`select ${availableCentsSql(caller.orgId, now)} as available`),
  ]);
  const availableCents = Number((results[3].results[0] as { available: number }).available);
  if (results[0].meta.changes === 1) return { kind: "committed", availableCents };
  // Another attempt with the same recovery ids committed first: a retry that took the idempotency
  // key over while this attempt stalled. That session is this request's session.
  if (await findSessionRow(db, caller.orgId, ids.sessionId)) return { kind: "committed", availableCents };
  const duplicate = await findDuplicate(db, caller.orgId, plan.dedupeKey, now);
  if (duplicate) return { kind: "duplicate", row: duplicate };
  throw new ApiError(
    "insufficient_credits",
    `Holding ${plan.holdCents} cents for an estimated ${plan.estimatedSeconds} seconds of video needs more than the ${availableCents} cents available.`,
    { detail: { needed_cents: plan.holdCents, available_cents: availableCents } },
  );
}

async function respond(deps: SubmitDeps, row: SessionRow, costHeld: number, availableCents: number): Promise<StoredResponse> {
  const [session] = await buildSessionObjects(deps.db, deps.objects, [row]);
  return {
    status: 200,
    headers: {
      "Content-Type": "application/json",
      "X-Service-Cost-Cents": String(costHeld),
      "X-Service-Available-Cents": String(availableCents),
    },
    body: JSON.stringify(session),
  };
}

/** Runs the steps from wherever `recovery` says the previous attempt stopped. */
async function runSteps(
  deps: SubmitDeps,
  caller: SubmitCaller,
  input: SubmitSessionInput,
  recovery: Ids & { enqueued?: boolean },
  resumed: boolean,
): Promise<StoredResponse> {
  const now = deps.now();
  // Fresh ids cannot have been committed; only a resumed attempt looks.
  let row = resumed ? await findSessionRow(deps.db, caller.orgId, recovery.sessionId) : null;
  let availableCents: number;
  let holdCents: number;

  if (!row) {
    checkOptions(input);
    const groupId = await resolveGroup(deps.db, caller.orgId, input.group);
    const source = await planSource(deps, caller.orgId, input.source);
    const dedupeKey = await dedupeKeyOf(input, groupId, source);
    const duplicate = await findDuplicate(deps.db, caller.orgId, dedupeKey, now);
    if (duplicate) return respondDuplicate(deps, caller, duplicate);
    const estimatedSeconds = estimateSeconds({ durationSeconds: input.duration_seconds, sizeBytes: source.sizeBytes });
    const plan: SubmitPlan = { groupId, source, dedupeKey, estimatedSeconds, holdCents: costCents(estimatedSeconds) };
    await deps.fault?.("before_commit");
    const committed = await commit(deps, caller, input, plan, recovery, now);
    if (committed.kind === "duplicate") return respondDuplicate(deps, caller, committed.row);
    row = (await findSessionRow(deps.db, caller.orgId, recovery.sessionId))!;
    availableCents = committed.availableCents;
    holdCents = plan.holdCents;
    await deps.fault?.("after_commit");
  } else {
    const balance = await getBalance(deps.db, caller.orgId, now);
    availableCents = balance.available_cents;
    holdCents = (await heldCentsOf(deps.db, caller.orgId, row.id)) ?? 0;
  }

  if (!recovery.enqueued) {
    const message: JobMessage = { type: "prepare", session_id: recovery.sessionId, job_id: recovery.jobId };
    await deps.queue.send(message);
    await deps.idempotency?.checkpoint({ enqueued: true });
    await deps.fault?.("after_enqueue");
  }
  return respond(deps, row, holdCents, availableCents);
}

async function heldCentsOf(db: Database, orgId: string, sessionId: string): Promise<number | null> {
  const row = await db
    .select({ held: usageEvents.heldCents })
    .from(usageEvents)
    .where(and(eq(usageEvents.orgId, orgId), eq(usageEvents.sessionId, sessionId)))
    .get();
  return row?.held ?? null;
}

/** The earlier session for the same link and settings: nothing new is held. */
async function respondDuplicate(deps: SubmitDeps, caller: SubmitCaller, row: SessionRow): Promise<StoredResponse> {
  const balance = await getBalance(deps.db, caller.orgId, deps.now());
  return respond(deps, row, 0, balance.available_cents);
}

function freshIds(): Ids {
  return { sessionId: newId("sess"), jobId: newId("job"), usageEventId: newId("ue") };
}

/**
 * Submits a session under the one idempotency rule (services/idempotency.ts, runIdempotent): a
 * completed response is replayed, an interrupted one resumed from its recovery points; a request
 * error (4xx, raised before anything is committed) frees the key, a server error releases it for a
 * retry that resumes where this one stopped.
 */
export async function submitSession(deps: SubmitDeps, caller: SubmitCaller, input: SubmitSessionInput, fingerprint: string): Promise<SubmitResponse> {
  const fresh = freshIds();
  // Recovery ids other than the fresh ones are an earlier attempt's: that attempt may have committed.
  return runIdempotent<Ids & { enqueued?: boolean }>(
    deps.idempotency ?? null,
    fingerprint,
    fresh,
    (recovery) => runSteps(deps, caller, input, recovery, recovery.sessionId !== fresh.sessionId),
    { waitMs: deps.waitForInProgressMs, afterStore: deps.fault ? () => deps.fault!("after_store") : undefined },
  );
}
