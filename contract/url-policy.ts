// The outbound URL policy, shared by the Worker (source links, camera-platform
// pages, webhook endpoints) and the GPU runner (source downloads), so both
// apply the same rules. Pure: no Workers or Node APIs, only `ipaddr.js` and
// standard web types, so either runtime can import it.
//
// A URL must be `https://`, carry no credentials, name a host (not a public IP
// literal), and that host must resolve only to public unicast addresses.
// Alternative IPv4 spellings (decimal, octal, hex, short forms) are normalised
// by the WHATWG URL parser before the check. The one exception is the
// development opt-in (`ALLOW_LOOPBACK_URLS` in the Worker,
// `--allow-loopback-urls` in the runner): a host whose every address is
// loopback is then accepted, over `http://` too.
import ipaddr from "ipaddr.js";

// ---------------------------------------------------------------- resolvers

export interface HostResolver {
  /** Every A and AAAA address of `hostname`; empty when the name does not exist. Throws ResolverUnavailableError when it cannot tell. */
  resolve(hostname: string): Promise<string[]>;
}

/** The resolver could not answer (unreachable, too slow, a broken answer): nobody's fault, worth a retry. */
export class ResolverUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ResolverUnavailableError";
  }
}

export const DEFAULT_DOH_URL = "https://cloudflare-dns.com/dns-query";
/** How long one DNS-over-HTTPS query may take: a resolver that hangs must not hang a submit or a delivery with it. */
export const DOH_TIMEOUT_MS = 5000;
/** A DNS answer is a few hundred bytes; anything much larger is not one. */
export const DOH_MAX_ANSWER_BYTES = 64 * 1024;

/** The part of `fetch` a DoH query needs. Callers pass the runtime's fetch with its receiver kept (see http-client.ts). */
export type DohFetch = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<Response>;

/** RFC 8484 JSON flavour, as served by Cloudflare and Google (and the local stand-in in tests). */
export class DohResolver implements HostResolver {
  constructor(
    private readonly endpoint: string,
    private readonly send: DohFetch,
  ) {}

  async resolve(hostname: string): Promise<string[]> {
    const lookups = await Promise.all(["A", "AAAA"].map((type) => this.query(hostname, type)));
    return lookups.flat();
  }

  private async query(name: string, type: "A" | "AAAA" | string): Promise<string[]> {
    const url = `${this.endpoint}?name=${encodeURIComponent(name)}&type=${type}`;
    let body: { Status?: number; Answer?: Array<{ type: number; data: string }> };
    try {
      const res = await this.send(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(DOH_TIMEOUT_MS) });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status}`);
      }
      body = JSON.parse(await readTextCapped(res, DOH_MAX_ANSWER_BYTES));
    } catch (err) {
      const reason = isTimeout(err) ? `no answer within ${DOH_TIMEOUT_MS / 1000} s` : (err as Error)?.message ?? String(err);
      throw new ResolverUnavailableError(`DNS-over-HTTPS lookup of ${name} failed: ${reason}`, { cause: err });
    }
    // 0 NOERROR, 3 NXDOMAIN (the name does not exist). Anything else (SERVFAIL, REFUSED …) says the
    // resolver could not find out, which a retry may fix.
    if (body.Status === 3) return [];
    if (body.Status !== 0) throw new ResolverUnavailableError(`DNS-over-HTTPS lookup of ${name} answered status ${body.Status}`);
    const wanted = type === "A" ? 1 : 28;
    return (body.Answer ?? []).filter((a) => a.type === wanted).map((a) => a.data);
  }
}

export function isTimeout(err: unknown): boolean {
  const name = (err as Error)?.name;
  return name === "TimeoutError" || name === "AbortError";
}

// ------------------------------------------------------------------- bodies

export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the answer is larger than ${limitBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** Reads a response body as UTF-8 text, stopping (and cancelling the stream) past `maxBytes`. */
export async function readTextCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new BodyTooLargeError(maxBytes);
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

// ---------------------------------------------------------------- addresses

export type AddressVerdict = "public" | "loopback" | "blocked";

export function classifyAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return "blocked";
  const range = ipaddr.parse(address).range();
  if (range === "unicast") return "public";
  if (range === "loopback") return "loopback";
  return "blocked"; // private, linkLocal, carrierGradeNat, multicast, unspecified, ipv4Mapped, reserved, uniqueLocal, rfc6052, 6to4, …
}

// --------------------------------------------------------------------- URLs

export type UrlRefusal = "invalid" | "credentials" | "scheme" | "ip_literal" | "unresolvable" | "not_public";

/** The URL breaks the policy; `message` is written for the customer who sent it. */
export class UrlRefusedError extends Error {
  constructor(
    readonly reason: UrlRefusal,
    message: string,
  ) {
    super(message);
    this.name = "UrlRefusedError";
  }
}

export interface CheckedUrl {
  url: URL;
  /** The host without IPv6 brackets. */
  host: string;
  /** The addresses the check accepted: a connection must go to one of these. */
  addresses: string[];
  /** Every address is loopback (only ever true with the development opt-in). */
  loopback: boolean;
}

export interface UrlPolicyOptions {
  resolver: HostResolver;
  /** Development only: accept hosts whose every address is loopback, over http too. */
  allowLoopback: boolean;
  /** How messages name the URL, e.g. "`source.url`" or "The link". */
  subject: string;
}

/**
 * Checks `raw` against the policy. Returns the parsed URL with the addresses
 * it may connect to; throws UrlRefusedError (the caller's fault) or
 * ResolverUnavailableError (nobody's; retry later).
 */
export async function checkUrl(raw: string, opts: UrlPolicyOptions): Promise<CheckedUrl> {
  const { subject } = opts;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefusedError("invalid", `${subject} is not a valid URL.`);
  }
  if (url.username || url.password) throw new UrlRefusedError("credentials", `${subject} must not contain credentials.`);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UrlRefusedError("scheme", `${subject} must be an https:// URL.`);
  // Plain http is only ever allowed to loopback in development; in production it is refused here,
  // before any DNS lookup.
  if (url.protocol === "http:" && !opts.allowLoopback) throw new UrlRefusedError("scheme", `${subject} must be an https:// URL.`);

  const host = url.hostname.replace(/^\[|\]$/g, "");
  const isLiteral = ipaddr.isValid(host);
  let addresses: string[];
  if (isLiteral) {
    addresses = [host];
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    addresses = ["127.0.0.1"]; // RFC 6761: never sent to a resolver
  } else {
    addresses = await opts.resolver.resolve(host);
    if (addresses.length === 0) throw new UrlRefusedError("unresolvable", `The host of ${subject} (${host}) does not resolve publicly.`);
  }

  const verdicts = addresses.map(classifyAddress);
  const loopback = verdicts.every((v) => v === "loopback");
  if (loopback && opts.allowLoopback) return { url, host, addresses, loopback: true };
  if (url.protocol !== "https:") throw new UrlRefusedError("scheme", `${subject} must be an https:// URL.`);
  if (isLiteral && verdicts[0] === "public") throw new UrlRefusedError("ip_literal", `${subject} must use a host name, not an IP address.`);
  if (verdicts.some((v) => v !== "public")) {
    throw new UrlRefusedError(
      "not_public",
      `${subject} points to a private, loopback, link-local or otherwise non-public address, which is not allowed.`,
    );
  }
  return { url, host, addresses, loopback: false };
}

/**
 * Where to connect for a checked URL when the connection can be pinned. A
 * loopback destination (development opt-in only) is reached over plain HTTP
 * at the URL's port — local stand-ins do not speak TLS — and the host name
 * the URL gave travels in `X-Forwarded-Host`.
 */
export function loopbackConnection(checked: CheckedUrl): { url: string; forwardedHost: string } | null {
  if (!checked.loopback) return null;
  const port = checked.url.port || (checked.url.protocol === "https:" ? "443" : "80");
  const address = checked.addresses[0].includes(":") ? `[${checked.addresses[0]}]` : checked.addresses[0];
  return { url: `http://${address}:${port}${checked.url.pathname}${checked.url.search}`, forwardedHost: checked.url.host };
}
