// Resumable download of a job's source into the work dir. Uses Range to pick
// up where an interrupted transfer stopped.
//
// External links (anything that is not this API's own signed media URL) go
// through the same URL policy as the Worker (contract/url-policy.ts):
// runners sit inside operators' networks, where private addresses are
// reachable, so the policy is applied here again rather than trusted from the
// API. Every hop — the link and each redirect — is resolved, refused when any
// address is private, loopback, link-local or otherwise non-public, and the
// connection is pinned to the checked address (the URL's host name still
// gives TLS its SNI and the request its Host), so a DNS answer that changes
// between check and connect (rebinding) is never fetched.
//
// Limits: the video may be at most MAX_SOURCE_BYTES (10 GB), enforced from
// the declared size and again while streaming (also when no Content-Length is
// sent); an attempt that receives nothing for IDLE_TIMEOUT_MS is abandoned
// and resumed; at most MAX_REDIRECTS redirects.
import { createWriteStream, existsSync, statSync } from "node:fs";
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { MAX_VIDEO_BYTES } from "../contract/runner-api";
import { checkUrl, DohResolver, ResolverUnavailableError, UrlRefusedError, type HostResolver } from "../contract/url-policy";
import { backoffMs, sleep } from "./api";
import { HostFaultError } from "./host-fault";

export type DownloadErrorCode = "source_unavailable" | "source_invalid" | "video_too_large";

/** A source problem no retry fixes. `message` is the customer's sentence; `detail` is for the runner's log only. */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly code: DownloadErrorCode,
    readonly detail?: string,
  ) {
    super(message);
    this.name = "DownloadError";
  }
}

/** A download attempt that receives nothing for this long is abandoned (and resumed). */
export const IDLE_TIMEOUT_MS = 60_000;
/** The spec's limit on a video: 10 GB. */
export const MAX_SOURCE_BYTES = MAX_VIDEO_BYTES;
export const MAX_REDIRECTS = 5;
/** How long the host's own resolver may take for one name. */
export const LOOKUP_TIMEOUT_MS = 5_000;

/** The host's resolver (getaddrinfo), bounded in time. */
export const systemResolver: HostResolver = {
  async resolve(hostname) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ResolverUnavailableError(`lookup of ${hostname} took over ${LOOKUP_TIMEOUT_MS / 1000} s`)), LOOKUP_TIMEOUT_MS);
    });
    try {
      const answers = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
      return answers.map((a) => a.address);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOTFOUND" || code === "ENODATA") return [];
      if (err instanceof ResolverUnavailableError) throw err;
      throw new ResolverUnavailableError(`lookup of ${hostname} failed: ${(err as Error).message}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
  },
};

/** `--doh-url`: resolve through a DNS-over-HTTPS endpoint like the Worker; otherwise the host's resolver. */
export function resolverFor(dohUrl: string | undefined): HostResolver {
  return dohUrl ? new DohResolver(dohUrl, (url, init) => fetch(url, init)) : systemResolver;
}

export interface DownloadOptions {
  /** Origin of the API: its own URLs are trusted and not DNS-checked. */
  apiOrigin: string;
  /** Development only: external links may point at hosts that resolve to loopback (reached over plain http). */
  allowLoopback?: boolean;
  /** Resolves external links' hosts (default: the host's resolver). */
  resolver?: HostResolver;
  signal?: AbortSignal;
  onProgress?: (bytes: number, total: number | null) => void;
  attempts?: number;
  /** Abandon an attempt after this long without data (default IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** Largest source accepted (default MAX_SOURCE_BYTES). */
  maxBytes?: number;
}

interface Pinned {
  address: string;
  family: number;
}

interface Hop {
  /** Where to send the request: the URL itself, or its plain-http twin for a loopback stand-in. */
  url: URL;
  pinned: Pinned | null;
}

/** Something worth another attempt (network, 5xx, a resolver hiccup); the message is safe for customers. */
class TransientDownloadError extends Error {}

const STATUS_WORDS: Record<number, string> = { 401: "sign-in required", 403: "access denied", 404: "not found", 410: "gone" };

/** Applies the URL policy to one hop of an external link and says where to connect. */
export async function checkHop(url: URL, opts: { allowLoopback: boolean; resolver: HostResolver }): Promise<Hop> {
  let checked;
  try {
    checked = await checkUrl(url.href, { resolver: opts.resolver, allowLoopback: opts.allowLoopback, subject: "The link" });
  } catch (err) {
    if (err instanceof UrlRefusedError && err.reason === "unresolvable") throw new DownloadError(err.message, "source_unavailable");
    if (err instanceof UrlRefusedError) throw new DownloadError(err.message, "source_invalid");
    if (err instanceof ResolverUnavailableError) throw new TransientDownloadError("The link's host name could not be looked up.", { cause: err });
    throw err;
  }
  const address = checked.addresses[0];
  const pinned = { address, family: address.includes(":") ? 6 : 4 };
  if (!checked.loopback || url.protocol === "http:") return { url, pinned };
  // A loopback stand-in (development opt-in): local test servers do not speak TLS.
  const plain = new URL(url);
  plain.port = url.port || "443";
  plain.protocol = "http:";
  return { url: plain, pinned };
}

function request(hop: Hop, headers: Record<string, string>, idleMs: number, signal?: AbortSignal) {
  const lib = hop.url.protocol === "https:" ? https : http;
  const { pinned } = hop;
  // The connection goes to the checked address; the URL's host name still gives TLS its SNI and the
  // request its Host header.
  const pinnedLookup: LookupFunction | undefined = pinned
    ? (_host, opts, cb) => {
        if ((opts as { all?: boolean }).all) (cb as any)(null, [pinned]);
        else cb(null, pinned.address, pinned.family);
      }
    : undefined;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = lib.get(hop.url, { headers, signal, ...(pinnedLookup ? { lookup: pinnedLookup } : {}) }, resolve);
    req.on("error", reject);
    // A source that stops sending must not hang the job: the attempt fails and the next one
    // resumes with a Range request.
    req.setTimeout(idleMs, () => req.destroy(new Error(`no data for ${idleMs / 1000} s`)));
  });
}

function tooLarge(bytes: number | null, maxBytes: number): DownloadError {
  const size = bytes === null ? `more than ${maxBytes}` : String(bytes);
  return new DownloadError(`The video is ${size} bytes; the limit is ${maxBytes} bytes (10 GB).`, "video_too_large");
}

/** Downloads `url` to `dest`, resuming a partial file. Returns the byte count. */
export async function downloadSource(url: string, dest: string, opts: DownloadOptions): Promise<number> {
  const origin = new URL(opts.apiOrigin).origin;
  const maxBytes = opts.maxBytes ?? MAX_SOURCE_BYTES;
  const policy = { allowLoopback: opts.allowLoopback ?? false, resolver: opts.resolver ?? systemResolver };
  const start = new URL(url);
  // The API's own signed URLs (uploaded files) get more patience: a blip of ours must not fail the
  // customer's session as `source_unavailable`.
  const trustedStart = start.origin === origin;
  const attempts = opts.attempts ?? (trustedStart ? 12 : 6);
  let total: number | null = null;
  let lastError: unknown = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const have = existsSync(dest) ? statSync(dest).size : 0;
    if (total !== null && have >= total) return have;
    try {
      // Every attempt follows the link afresh: a redirect target (often a short-lived signed URL) is
      // checked again each time.
      let current = start;
      let res: http.IncomingMessage;
      for (let hop = 0; ; hop++) {
        const next = current.origin === origin ? { url: current, pinned: null } : await checkHop(current, policy);
        res = await request(next, have > 0 ? { Range: `bytes=${have}-` } : {}, opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS, opts.signal);
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (status < 300 || status >= 400 || !location) break;
        res.resume();
        if (hop >= MAX_REDIRECTS) throw new DownloadError(`The link redirects more than ${MAX_REDIRECTS} times; link to the video file itself.`, "source_unavailable");
        current = new URL(location, current);
      }
      const status = res.statusCode ?? 0;
      if (status === 416 && have > 0) {
        res.resume();
        return have; // already complete
      }
      if (status >= 300) res.resume();
      if (STATUS_WORDS[status]) {
        throw new DownloadError(`The link answered HTTP ${status} (${STATUS_WORDS[status]}) when the video was downloaded. Check that it is public and has not expired, then submit again.`, "source_unavailable");
      }
      if (status >= 500 || status === 429 || status === 408) throw new TransientDownloadError(`The link answered HTTP ${status}.`);
      if (status >= 300) throw new DownloadError(`The link answered HTTP ${status} when the video was downloaded.`, "source_unavailable");

      const resumed = status === 206;
      const range = /\/(\d+)$/.exec(res.headers["content-range"] ?? "");
      total = range ? Number(range[1]) : res.headers["content-length"] ? Number(res.headers["content-length"]) + (resumed ? have : 0) : null;
      if (total !== null && total > maxBytes) {
        res.destroy();
        throw tooLarge(total, maxBytes);
      }
      const out = createWriteStream(dest, { flags: resumed ? "a" : "w" });
      let received = resumed ? have : 0;
      await new Promise<void>((resolve, reject) => {
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          // The declared size can be missing or wrong: count what arrives.
          if (received > maxBytes) {
            reject(tooLarge(null, maxBytes)); // first: the teardown below emits errors of its own
            res.unpipe(out);
            out.end();
            res.destroy();
            return;
          }
          opts.onProgress?.(received, total);
        });
        res.on("error", reject);
        res.on("aborted", () => reject(new Error("the source closed the connection")));
        // Writing the local copy failed (disk full, permissions): the host's fault, not the source's.
        out.on("error", (e) => reject(new HostFaultError(`cannot write ${dest}: ${e.message}`)));
        out.on("finish", resolve);
        res.pipe(out);
      });
      if (total === null || received >= total) return received;
      throw new Error(`connection closed at ${received} of ${total} bytes`);
    } catch (err) {
      if (err instanceof DownloadError || err instanceof HostFaultError || opts.signal?.aborted) throw err;
      lastError = err;
      if (attempt < attempts - 1) await sleep(backoffMs(attempt, { attempts, baseMs: 500, maxMs: trustedStart ? 30_000 : 10_000 }), opts.signal);
    }
  }
  const detail = String((lastError as Error)?.message ?? lastError);
  const message =
    lastError instanceof TransientDownloadError
      ? `${lastError.message} The download was tried ${attempts} times.`
      : `The video could not be downloaded: the connection to the source kept failing (${attempts} attempts).`;
  throw new DownloadError(message, "source_unavailable", detail);
}
