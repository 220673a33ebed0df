// The jobs queue consumer: prepares each submitted session's job. It checks
// that the source can be used (the upload's bytes are in R2; a link is public
// and reachable, after resolving a platform page to its video) and makes the
// job claimable. A source that cannot be used fails the session
// (`source_invalid` / `source_unavailable`); transient trouble is retried
// through the queue, and what still fails lands in the dead-letter queue,
// whose consumer fails the session with `unknown` rather than leave it queued.
import { and, eq } from "drizzle-orm";
import { jobs, sessions, uploads } from "../../drizzle/schema";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { buildServices } from "../middleware/services";
import { failSession, markJobReady, type LifecycleDeps } from "../services/jobs";
import { backgroundBaseUrl, lifecycleDeps } from "../services/lifecycle";
import { platformBySourceType, PlatformResolveError } from "../services/platforms";
import { assertPublicUrl } from "../services/url-safety";
import type { QueueConsumer } from "./index";

export interface PrepareMessage {
  type: "prepare";
  session_id: string;
  job_id: string;
}

/** A source problem that no retry will fix. */
export class SourceError extends Error {
  constructor(
    readonly code: "source_invalid" | "source_unavailable",
    message: string,
  ) {
    super(message);
  }
}

const RETRY_DELAYS_SECONDS = [10, 30, 120, 600, 1800];

export interface PrepareContext {
  deps: LifecycleDeps;
  allowLoopback: boolean;
  resolver: import("../services/url-safety").HostResolver;
  fetcher: typeof fetch;
}

/** Fetches `url` without following redirects blindly: each hop is re-checked. */
async function checkedFetch(ctx: PrepareContext, raw: string, init: RequestInit): Promise<Response> {
  let url = raw;
  for (let hop = 0; hop < 5; hop++) {
    try {
      await assertPublicUrl(url, { resolver: ctx.resolver, allowLoopback: ctx.allowLoopback, param: "source.url" });
    } catch (err) {
      if (err instanceof ApiError && err.code === "url_not_allowed") throw new SourceError("source_invalid", err.message);
      throw err;
    }
    const res = await ctx.fetcher(url, { ...init, redirect: "manual" });
    const location = res.headers.get("Location");
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).toString();
      continue;
    }
    return res;
  }
  throw new SourceError("source_unavailable", "The link redirects too many times.");
}

/** Checks a public video link answers with something that can be a video. */
async function checkVideoLink(ctx: PrepareContext, url: string): Promise<void> {
  const res = await checkedFetch(ctx, url, { method: "GET", headers: { Range: "bytes=0-0" } });
  await res.body?.cancel();
  if (res.status === 404 || res.status === 410 || res.status === 401 || res.status === 403) {
    throw new SourceError("source_unavailable", `The video link answered HTTP ${res.status}.`);
  }
  if (res.status >= 500) throw new Error(`video link answered HTTP ${res.status}`); // transient: retry
  if (res.status >= 400) throw new SourceError("source_unavailable", `The video link answered HTTP ${res.status}.`);
  const type = res.headers.get("Content-Type") ?? "";
  if (/^text\/|json|xml/i.test(type)) {
    throw new SourceError("source_invalid", `The link serves ${type.split(";")[0]}, not an MP4 or MOV video.`);
  }
}

/** Prepares one job. Returns without change when the session moved on already. */
export async function prepareJob(ctx: PrepareContext, message: PrepareMessage): Promise<void> {
  const { db } = ctx.deps;
  const job = await db.select().from(jobs).where(eq(jobs.id, message.job_id)).get();
  const session = await db.select().from(sessions).where(eq(sessions.id, message.session_id)).get();
  if (!job || !session || job.sessionId !== session.id) return;
  if (job.status !== "pending" || session.status !== "queued") return;
  try {
    if (session.sourceType === "upload") {
      const upload = session.uploadId
        ? await db.select().from(uploads).where(and(eq(uploads.id, session.uploadId), eq(uploads.orgId, session.orgId))).get()
        : undefined;
      if (!upload || upload.status !== "complete") throw new SourceError("source_unavailable", "The uploaded file is no longer available.");
      const head = await ctx.deps.env.MEDIA.head(upload.r2Key);
      if (!head) throw new SourceError("source_unavailable", "The uploaded file's bytes are missing.");
      if (head.size !== upload.size) throw new SourceError("source_invalid", `The uploaded file has ${head.size} bytes, not the ${upload.size} reserved.`);
      await markJobReady(ctx.deps, job.id, { downloadRef: upload.r2Key });
      return;
    }
    if (!session.sourceUrl) throw new SourceError("source_invalid", "The session has no source link.");
    let mediaUrl = session.sourceUrl;
    const platform = platformBySourceType(session.sourceType);
    if (platform) {
      try {
        mediaUrl = await platform.resolveMediaUrl(new URL(session.sourceUrl), (input, init) => checkedFetch(ctx, input, init ?? {}));
      } catch (err) {
        if (err instanceof PlatformResolveError) throw new SourceError(err.code, err.message);
        throw err;
      }
    }
    await checkVideoLink(ctx, mediaUrl);
    await markJobReady(ctx.deps, job.id, { downloadRef: mediaUrl });
  } catch (err) {
    if (err instanceof SourceError) {
      await failSession(ctx.deps, session.id, err.code, err.message);
      return;
    }
    throw err;
  }
}

function prepareContext(env: Env): PrepareContext {
  const services = buildServices(env);
  // Signed download URLs are made at claim time with the runner's request origin.
  return { deps: lifecycleDeps(services, backgroundBaseUrl(env)), allowLoopback: services.allowLoopbackUrls, resolver: services.resolver, fetcher: fetch };
}

function isPrepareMessage(body: unknown): body is PrepareMessage {
  const b = body as PrepareMessage;
  return b?.type === "prepare" && typeof b.session_id === "string" && typeof b.job_id === "string";
}

export const consumeJobs: QueueConsumer = async (batch, env) => {
  const ctx = prepareContext(env);
  for (const message of batch.messages) {
    if (!isPrepareMessage(message.body)) {
      console.error(JSON.stringify({ level: "error", msg: "unrecognised jobs message dropped", body: message.body }));
      message.ack();
      continue;
    }
    try {
      await prepareJob(ctx, message.body);
      message.ack();
    } catch (err) {
      const delaySeconds = RETRY_DELAYS_SECONDS[Math.min(message.attempts - 1, RETRY_DELAYS_SECONDS.length - 1)];
      console.error(JSON.stringify({ level: "warn", msg: "job preparation failed; retrying", session_id: message.body.session_id, attempt: message.attempts, error: String(err) }));
      message.retry({ delaySeconds });
    }
  }
};

/** Messages that exhausted their retries: fail the session instead of leaving it queued. */
export const consumeJobsDeadLetter: QueueConsumer = async (batch, env) => {
  const ctx = prepareContext(env);
  for (const message of batch.messages) {
    if (isPrepareMessage(message.body)) {
      await failSession(ctx.deps, message.body.session_id, "unknown", "The job could not be prepared; nothing was charged.");
    }
    message.ack();
  }
};
