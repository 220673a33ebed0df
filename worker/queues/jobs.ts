// The jobs queue consumer: prepares each submitted session's job. It checks
// that the source can be used (the upload's bytes are in R2; a link is public
// and reachable, after resolving a platform page to its video) and makes the
// job claimable. A source that cannot be used fails the session
// (`source_invalid` / `source_unavailable` / `video_too_large`) with a message
// the customer can act on. Transient trouble of the source (5xx, timeouts,
// DNS) is retried through the queue and fails the session with
// `source_unavailable` on the last delivery; our own failures (D1, R2) end in
// the dead-letter queue, whose consumer fails the session with `unknown`
// rather than leave it queued. Every request goes through the HttpClient with
// the limits below.
import { and, eq } from "drizzle-orm";
import { jobs, sessions, uploads } from "../../drizzle/schema";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { buildServices } from "../middleware/services";
import { HttpClient, OutboundError } from "../services/http-client";
import { failSession, markJobReady, type LifecycleDeps } from "../services/jobs";
import { backgroundBaseUrl, lifecycleDeps } from "../services/lifecycle";
import { platformBySourceType, PlatformResolveError, type FetchedPage } from "../services/platforms";
import { MAX_VIDEO_BYTES } from "../../contract/runner-api";
import { BodyTooLargeError, readTextCapped } from "../../contract/url-policy";
import type { QueueConsumer } from "./index";

export interface PrepareMessage {
  type: "prepare";
  session_id: string;
  job_id: string;
}

/** A source problem that no retry will fix; `message` is what the customer reads on the failed session. */
export class SourceError extends Error {
  constructor(
    readonly code: "source_invalid" | "source_unavailable" | "video_too_large",
    message: string,
  ) {
    super(message);
  }
}

/** Trouble on the source's side that may pass (5xx, timeouts, DNS): retried through the queue. */
export class TransientSourceError extends Error {
  override name = "TransientSourceError";
}

const RETRY_DELAYS_SECONDS = [10, 30, 120, 600, 1800];
/**
 * Deliveries of one prepare message: the first plus `max_retries` (5 in
 * wrangler.toml). On the last one a link that is still unreachable fails the
 * session with `source_unavailable` instead of going to the dead-letter queue.
 */
export const PREPARE_ATTEMPTS = 6;

/** Limits of the requests made while preparing a link (docs/runner.md, "Outbound limits"). */
export const PAGE_TIMEOUT_MS = 10_000;
export const PAGE_MAX_BYTES = 5 * 1024 * 1024;
export const LINK_CHECK_TIMEOUT_MS = 10_000;
export const LINK_MAX_REDIRECTS = 5;

export interface PrepareContext {
  deps: LifecycleDeps;
  http: HttpClient;
  /** This is the message's last delivery: transient trouble now fails the session. */
  finalAttempt: boolean;
}

const STATUS_WORDS: Record<number, string> = { 401: "sign-in required", 403: "access denied", 404: "not found", 410: "gone" };

/** One request to a customer's link (or a hop it redirects to), with the prepare step's limits. */
async function fetchLink(ctx: PrepareContext, url: string, req: { headers: Record<string, string>; timeoutMs: number }): Promise<Response> {
  try {
    const { response } = await ctx.http.fetchPublic(url, { param: "source.url", method: "GET", maxRedirects: LINK_MAX_REDIRECTS, ...req });
    return response;
  } catch (err) {
    if (err instanceof ApiError && err.code === "url_not_allowed") throw new SourceError("source_invalid", err.message);
    if (err instanceof ApiError && err.code === "dns_unavailable") throw new TransientSourceError("The link's host name could not be looked up.", { cause: err });
    if (err instanceof OutboundError) {
      throw new TransientSourceError(err.kind === "timeout" ? `The link did not answer (${err.message}).` : "The link's server could not be reached.", { cause: err });
    }
    throw err;
  }
}

/** A platform page, read with a size cap. */
async function fetchPage(ctx: PrepareContext, url: string): Promise<FetchedPage> {
  const res = await fetchLink(ctx, url, { headers: { Accept: "text/html,application/json" }, timeoutMs: PAGE_TIMEOUT_MS });
  const contentType = res.headers.get("Content-Type") ?? "";
  if (res.status < 200 || res.status >= 300) {
    await res.body?.cancel();
    return { status: res.status, contentType, text: "" };
  }
  try {
    return { status: res.status, contentType, text: await readTextCapped(res, PAGE_MAX_BYTES) };
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new SourceError("source_invalid", `The match page is larger than ${PAGE_MAX_BYTES / 1024 / 1024} MB, which no real match page is; check the link.`);
    if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
      throw new TransientSourceError(`The page did not arrive within ${PAGE_TIMEOUT_MS / 1000} s.`, { cause: err });
    }
    throw new TransientSourceError("The page's server closed the connection.", { cause: err });
  }
}

/** The size a ranged GET reveals: the total of `Content-Range`, else a 200's `Content-Length`. */
function declaredSize(res: Response): number | null {
  const range = /\/(\d+)\s*$/.exec(res.headers.get("Content-Range") ?? "");
  if (range) return Number(range[1]);
  const length = Number(res.headers.get("Content-Length"));
  return res.status === 200 && Number.isSafeInteger(length) && length > 0 ? length : null;
}

/** Checks a public video link answers with something that can be a video, within the size limit. */
async function checkVideoLink(ctx: PrepareContext, url: string): Promise<void> {
  const res = await fetchLink(ctx, url, { headers: { Range: "bytes=0-0" }, timeoutMs: LINK_CHECK_TIMEOUT_MS });
  await res.body?.cancel();
  const { status } = res;
  if (status >= 300 && status < 400) {
    throw new SourceError(
      "source_unavailable",
      res.headers.get("Location")
        ? `The link redirects more than ${LINK_MAX_REDIRECTS} times; link to the video file itself.`
        : `The link answered HTTP ${status} without saying where the video is; link to the video file itself.`,
    );
  }
  if (status >= 500 || status === 429) throw new TransientSourceError(`The link answered HTTP ${status}.`);
  if (status >= 400) {
    const words = STATUS_WORDS[status] ? ` (${STATUS_WORDS[status]})` : "";
    throw new SourceError(
      "source_unavailable",
      `The link answered HTTP ${status}${words}. It must download without signing in: check that the file is public and the link has not expired, then submit again.`,
    );
  }
  const type = (res.headers.get("Content-Type") ?? "").split(";")[0].trim();
  if (/^text\/|json|xml/i.test(type)) {
    const what = type === "text/html" ? "a web page (text/html)" : type;
    throw new SourceError("source_invalid", `The link serves ${what}, not an MP4 or MOV video file. Link to the video file itself.`);
  }
  const size = declaredSize(res);
  if (size !== null && size > MAX_VIDEO_BYTES) {
    throw new SourceError("video_too_large", `The video at the link is ${size} bytes; the limit is ${MAX_VIDEO_BYTES} bytes (10 GB).`);
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
        mediaUrl = await platform.resolveMediaUrl(new URL(session.sourceUrl), (url) => fetchPage(ctx, url));
      } catch (err) {
        if (err instanceof PlatformResolveError && err.transient) throw new TransientSourceError(err.message, { cause: err });
        if (err instanceof PlatformResolveError) throw new SourceError(err.code, err.message);
        throw err;
      }
    }
    await checkVideoLink(ctx, mediaUrl);
    await markJobReady(ctx.deps, job.id, { downloadRef: mediaUrl });
  } catch (err) {
    if (err instanceof TransientSourceError && ctx.finalAttempt) {
      await failSession(
        ctx.deps,
        session.id,
        "source_unavailable",
        `${err.message} We kept trying for about 45 minutes; nothing was charged. Submit the link again once it works.`,
      );
      return;
    }
    if (err instanceof SourceError) {
      await failSession(ctx.deps, session.id, err.code, err.message);
      return;
    }
    throw err;
  }
}

function prepareContext(env: Env, finalAttempt = false): PrepareContext {
  const services = buildServices(env);
  // Signed download URLs are made at claim time with the runner's request origin.
  return { deps: lifecycleDeps(services, backgroundBaseUrl(env)), http: services.http, finalAttempt };
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
      await prepareJob({ ...ctx, finalAttempt: message.attempts >= PREPARE_ATTEMPTS }, message.body);
      message.ack();
    } catch (err) {
      const delaySeconds = RETRY_DELAYS_SECONDS[Math.min(message.attempts - 1, RETRY_DELAYS_SECONDS.length - 1)];
      const cause = (err as Error)?.cause;
      console.error(
        JSON.stringify({
          level: "warn",
          msg: "job preparation failed; retrying",
          session_id: message.body.session_id,
          job_id: message.body.job_id,
          attempt: message.attempts,
          error: String((err as Error)?.stack ?? err),
          ...(cause ? { cause: String((cause as Error)?.stack ?? cause) } : {}),
        }),
      );
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
