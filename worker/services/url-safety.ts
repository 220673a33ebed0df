// Outbound URL safety (SSRF protection) for the API: the shared policy of
// contract/url-policy.ts, with its refusals turned into the spec's envelope.
//   - a URL that breaks the policy → 400 `url_not_allowed`, `param` naming the field;
//   - a resolver that cannot answer → 503 `dns_unavailable` with `Retry-After`
//     (nothing was created; the same request, Idempotency-Key included, can be retried).
import { ApiError } from "../errors";
import { checkUrl, ResolverUnavailableError, UrlRefusedError, type CheckedUrl, type HostResolver } from "../../contract/url-policy";

export {
  classifyAddress,
  DEFAULT_DOH_URL,
  DOH_TIMEOUT_MS,
  DohResolver,
  type AddressVerdict,
  type CheckedUrl,
  type HostResolver,
} from "../../contract/url-policy";

/** Seconds a client should wait before retrying after `dns_unavailable`. */
export const DNS_RETRY_AFTER_SECONDS = 5;

export interface UrlPolicy {
  resolver: HostResolver;
  /** Development only: allow hosts that resolve only to loopback (see ALLOW_LOOPBACK_URLS). */
  allowLoopback: boolean;
  /** The request field named in errors, e.g. `source.url` or `url`. */
  param: string;
}

export function dnsUnavailable(param: string): ApiError {
  return new ApiError(
    "dns_unavailable",
    `The host of \`${param}\` could not be looked up right now (our DNS resolver did not answer). Nothing was created or charged; retry in a few seconds, with the same Idempotency-Key if you sent one.`,
    { param, headers: { "Retry-After": String(DNS_RETRY_AFTER_SECONDS) } },
  );
}

/** Checks `raw` against the policy; see the header for what is thrown. */
export async function checkPublicUrl(raw: string, policy: UrlPolicy): Promise<CheckedUrl> {
  try {
    return await checkUrl(raw, { resolver: policy.resolver, allowLoopback: policy.allowLoopback, subject: `\`${policy.param}\`` });
  } catch (err) {
    if (err instanceof UrlRefusedError) throw new ApiError("url_not_allowed", err.message, { param: policy.param });
    if (err instanceof ResolverUnavailableError) {
      console.warn(JSON.stringify({ level: "warn", msg: "DNS resolver unavailable", param: policy.param, error: err.message }));
      throw dnsUnavailable(policy.param);
    }
    throw err;
  }
}
