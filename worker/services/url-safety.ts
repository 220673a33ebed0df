// Outbound URL safety (SSRF protection) shared by session source links and
// webhook endpoints. A URL must be `https://`, carry no credentials, and its
// host must resolve only to public unicast addresses. IP literals are checked
// directly; names go through a `HostResolver` (DNS-over-HTTPS in production,
// a local DoH server in tests). Alternative IPv4 spellings (decimal, octal,
// hex, short forms) are normalised by the WHATWG URL parser before the check.
import ipaddr from "ipaddr.js";
import { ApiError } from "../errors";

export interface HostResolver {
  /** Every A and AAAA address of `hostname`; empty when it does not resolve. */
  resolve(hostname: string): Promise<string[]>;
}

export const DEFAULT_DOH_URL = "https://cloudflare-dns.com/dns-query";

/** RFC 8484 JSON flavour, as served by Cloudflare and Google. */
export class DohResolver implements HostResolver {
  constructor(
    private readonly endpoint: string = DEFAULT_DOH_URL,
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  async resolve(hostname: string): Promise<string[]> {
    const lookups = await Promise.all(["A", "AAAA"].map((type) => this.query(hostname, type)));
    return lookups.flat();
  }

  private async query(name: string, type: string): Promise<string[]> {
    const url = `${this.endpoint}?name=${encodeURIComponent(name)}&type=${type}`;
    // A resolver that hangs must not hang a submit or a webhook delivery with it.
    const res = await this.fetcher(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(DOH_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`DNS-over-HTTPS lookup failed with HTTP ${res.status}`);
    const body = (await res.json()) as { Status: number; Answer?: Array<{ type: number; data: string }> };
    if (body.Status !== 0) return []; // NXDOMAIN, SERVFAIL …: treat as not resolvable
    const wanted = type === "A" ? 1 : 28;
    return (body.Answer ?? []).filter((a) => a.type === wanted).map((a) => a.data);
  }
}

/** How long one DNS-over-HTTPS query may take. */
export const DOH_TIMEOUT_MS = 5000;

export interface UrlPolicy {
  resolver: HostResolver;
  /** Development only: allow `http(s)://127.0.0.1`/`localhost`/`[::1]` (see ALLOW_LOOPBACK_URLS). */
  allowLoopback: boolean;
  /** The request field named in errors, e.g. `source.url` or `url`. */
  param: string;
}

export type AddressVerdict = "public" | "loopback" | "blocked";

export function classifyAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address)) return "blocked";
  const range = ipaddr.parse(address).range();
  if (range === "unicast") return "public";
  if (range === "loopback") return "loopback";
  return "blocked"; // private, linkLocal, carrierGradeNat, multicast, unspecified, ipv4Mapped, reserved, uniqueLocal, rfc6052, 6to4, …
}

function reject(policy: UrlPolicy, message: string): never {
  throw new ApiError("url_not_allowed", message, { param: policy.param });
}

/**
 * Validates `raw` and returns the parsed URL, or throws `400 url_not_allowed`
 * naming the field. Loopback is accepted only when the policy allows it, and
 * then also over plain http (local test servers do not speak TLS).
 */
export async function assertPublicUrl(raw: string, policy: UrlPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return reject(policy, `\`${policy.param}\` is not a valid URL.`);
  }
  if (url.username || url.password) reject(policy, `\`${policy.param}\` must not contain credentials.`);
  if (url.protocol !== "https:" && url.protocol !== "http:") reject(policy, `\`${policy.param}\` must be an https:// URL.`);

  const host = url.hostname.replace(/^\[|\]$/g, "");
  const isLiteral = ipaddr.isValid(host);
  let addresses: string[];
  if (isLiteral) {
    addresses = [host];
  } else if (host === "localhost" || host.endsWith(".localhost")) {
    addresses = ["127.0.0.1"];
  } else {
    try {
      addresses = await policy.resolver.resolve(host);
    } catch {
      // The resolver itself failed: not the caller's fault, and retryable.
      throw new ApiError("api_error", "Could not resolve the URL's host right now; please retry.");
    }
    if (addresses.length === 0) reject(policy, `The host of \`${policy.param}\` (${host}) does not resolve publicly.`);
  }

  const verdicts = addresses.map(classifyAddress);
  const loopbackOnly = verdicts.every((v) => v === "loopback");
  if (loopbackOnly && policy.allowLoopback) return url;
  if (url.protocol !== "https:") reject(policy, `\`${policy.param}\` must be an https:// URL.`);
  if (isLiteral && !loopbackOnly && verdicts[0] === "public") {
    reject(policy, `\`${policy.param}\` must use a host name, not an IP address.`);
  }
  if (verdicts.some((v) => v !== "public")) {
    reject(policy, `\`${policy.param}\` points to a private, loopback, link-local or otherwise non-public address, which is not allowed.`);
  }
  return url;
}
