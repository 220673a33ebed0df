// Resumable download of a job's source into the work dir. Uses Range to pick
// up where an interrupted transfer stopped. For external links (anything that
// is not this API's own signed media URL) the host is resolved once, checked
// to be public, and the connection is pinned to that checked address, so a
// DNS answer that changes to a private address between check and connect
// (rebinding) is never fetched.
import { createWriteStream, existsSync, statSync } from "node:fs";
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { backoffMs, sleep } from "./api";
import { HostFaultError } from "./host-fault";

export class DownloadError extends Error {
  constructor(
    message: string,
    /** `source_unavailable` (gone, refused) or `source_invalid` (not a public video link). */
    readonly code: "source_unavailable" | "source_invalid",
  ) {
    super(message);
  }
}

/** A download attempt that receives nothing for this long is abandoned (and resumed). */
export const IDLE_TIMEOUT_MS = 60_000;

export interface DownloadOptions {
  /** Origin of the API: its own URLs are trusted and not DNS-checked. */
  apiOrigin: string;
  /** Development only: external links may point at loopback. */
  allowLoopback?: boolean;
  signal?: AbortSignal;
  onProgress?: (bytes: number, total: number | null) => void;
  attempts?: number;
  /** Abandon an attempt after this long without data (default IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
}

export async function resolvePinnedAddress(hostname: string, allowLoopback: boolean): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const answers = ipaddr.isValid(host) ? [{ address: host, family: host.includes(":") ? 6 : 4 }] : await lookup(host, { all: true });
  if (answers.length === 0) throw new DownloadError(`${host} does not resolve`, "source_unavailable");
  for (const a of answers) {
    const range = ipaddr.parse(a.address).range();
    const ok = range === "unicast" || (allowLoopback && range === "loopback");
    if (!ok) throw new DownloadError(`${host} resolves to a non-public address (${range})`, "source_invalid");
  }
  return answers[0];
}

function request(url: URL, headers: Record<string, string>, pinned: { address: string; family: number } | null, idleMs: number, signal?: AbortSignal) {
  const lib = url.protocol === "https:" ? https : http;
  const pinnedLookup: LookupFunction | undefined = pinned
    ? (_host, opts, cb) => {
        if ((opts as { all?: boolean }).all) (cb as any)(null, [pinned]);
        else cb(null, pinned.address, pinned.family);
      }
    : undefined;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = lib.get(url, { headers, signal, ...(pinnedLookup ? { lookup: pinnedLookup } : {}) }, resolve);
    req.on("error", reject);
    // A source that stops sending must not hang the job: the attempt fails and the next one
    // resumes with a Range request.
    req.setTimeout(idleMs, () => req.destroy(new Error(`no data for ${idleMs / 1000} s`)));
  });
}

/** Downloads `url` to `dest`, resuming a partial file. Returns the byte count. */
export async function downloadSource(url: string, dest: string, opts: DownloadOptions): Promise<number> {
  const target = new URL(url);
  const trusted = target.origin === new URL(opts.apiOrigin).origin;
  if (!trusted && target.protocol !== "https:" && !opts.allowLoopback) {
    throw new DownloadError("only https:// links can be fetched", "source_invalid");
  }
  // The API's own signed URLs (uploaded files) get more patience: a blip of ours must not fail the
  // customer's session as `source_unavailable`.
  const attempts = opts.attempts ?? (trusted ? 12 : 6);
  let total: number | null = null;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const have = existsSync(dest) ? statSync(dest).size : 0;
    if (total !== null && have >= total) return have;
    try {
      const pinned = trusted ? null : await resolvePinnedAddress(target.hostname, opts.allowLoopback ?? false);
      const res = await request(target, have > 0 ? { Range: `bytes=${have}-` } : {}, pinned, opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS, opts.signal);
      const status = res.statusCode ?? 0;
      if (status === 416 && have > 0) {
        res.resume();
        return have; // already complete
      }
      if (status >= 300 && status < 400) {
        res.resume();
        throw new DownloadError(`the link redirects (HTTP ${status}); redirects are not followed`, "source_unavailable");
      }
      if (status === 404 || status === 410 || status === 401 || status === 403) {
        res.resume();
        throw new DownloadError(`the source answered HTTP ${status}`, "source_unavailable");
      }
      if (status >= 400) {
        res.resume();
        throw new Error(`HTTP ${status}`);
      }
      const resumed = status === 206;
      const range = /\/(\d+)$/.exec(res.headers["content-range"] ?? "");
      total = range ? Number(range[1]) : res.headers["content-length"] ? Number(res.headers["content-length"]) + (resumed ? have : 0) : null;
      const out = createWriteStream(dest, { flags: resumed ? "a" : "w" });
      let received = resumed ? have : 0;
      await new Promise<void>((resolve, reject) => {
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          opts.onProgress?.(received, total);
        });
        res.on("error", reject);
        // Writing the local copy failed (disk full, permissions): the host's fault, not the source's.
        out.on("error", (e) => reject(new HostFaultError(`cannot write ${dest}: ${e.message}`)));
        out.on("finish", resolve);
        res.pipe(out);
      });
      if (total === null || received >= total) return received;
      throw new Error(`connection closed at ${received} of ${total} bytes`);
    } catch (err) {
      if (err instanceof DownloadError || err instanceof HostFaultError || opts.signal?.aborted) throw err;
      if (attempt === attempts - 1) throw new DownloadError(`download failed: ${(err as Error).message}`, "source_unavailable");
      await sleep(backoffMs(attempt, { attempts, baseMs: 500, maxMs: trusted ? 30_000 : 10_000 }), opts.signal);
    }
  }
  throw new DownloadError("download failed", "source_unavailable");
}
