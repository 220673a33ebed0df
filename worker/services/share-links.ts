// Share links to the session hub page: expiring, signed URLs that open one session's page in a
// browser without an API key. The signature is the credential, like signed media URLs, but under
// a key of its own, so the hub can be switched off for every link at once (rotate the key)
// without touching media or upload URLs.
//
//   <hub base>/hub/sessions/<sess_id>?exp=<unix>&kid=<key id>&sig=<base64url HMAC-SHA256>
//
// The key is `HUB_SIGNING_SECRET` when set, else derived from `MEDIA_SIGNING_SECRET`
// (HMAC(media key, "hub-share-links/v1")). `kid` names the key a link was signed with (a hash of
// the key, not the key), so a link made before a rotation is told apart from a forged one.
import type { Env } from "../env";
import { ApiError } from "../errors";
import { hmacBytes, hmacKey, mediaSigningKey, signWithKey, toBase64Url, verifyWithKey } from "../lib/signing";
import { publicBaseUrl } from "./media-urls";

export const SHARE_LINK_PATH_PREFIX = "/hub/sessions/";
/** Expiries are rounded up to this boundary, so links minted within the same hour are identical. */
const EXPIRY_STEP_SECONDS = 3600;

interface HubKey {
  key: CryptoKey;
  /** 8 base64url characters naming the key (HMAC of a fixed label under it). */
  id: string;
}

const hubKeys = new Map<string, Promise<HubKey>>();

async function deriveHubKey(env: Env): Promise<HubKey> {
  const dedicated = env.HUB_SIGNING_SECRET;
  if (dedicated !== undefined && dedicated !== "" && dedicated.length < 16) {
    throw new ApiError("service_misconfigured", "Share links are disabled: HUB_SIGNING_SECRET must have 16+ characters.");
  }
  const key = dedicated ? await hmacKey(dedicated) : await hmacKey(await hmacBytes(await mediaSigningKey(env), "hub-share-links/v1"));
  const id = toBase64Url(await hmacBytes(key, "hub-key-id")).slice(0, 8);
  return { key, id };
}

function hubKey(env: Env): Promise<HubKey> {
  const cacheKey = `${env.HUB_SIGNING_SECRET ?? ""}\n${env.MEDIA_SIGNING_SECRET ?? ""}`;
  let entry = hubKeys.get(cacheKey);
  if (!entry) {
    entry = deriveHubKey(env);
    // A misconfiguration must not be cached: the next request re-reads the secrets.
    entry.catch(() => hubKeys.delete(cacheKey));
    hubKeys.set(cacheKey, entry);
  }
  return entry;
}

/** The origin hub links point at: `HUB_BASE_URL` when set, else the API's public origin. */
export function hubBaseUrl(env: Env, requestUrl: string): string {
  return env.HUB_BASE_URL ? env.HUB_BASE_URL.replace(/\/+$/, "") : publicBaseUrl(env, requestUrl);
}

const message = (sessionId: string, exp: number, kid: string) => `hub\n${sessionId}\n${exp}\n${kid}`;

export interface ShareLink {
  url: string;
  /** Unix seconds after which the link is refused. */
  expires: number;
}

/** A link to the hub page of `sessionId`, valid for at least `expiresInSeconds` (rounded up to the hour). */
export async function createShareLink(env: Env, baseUrl: string, sessionId: string, opts: { expiresInSeconds: number; now: number }): Promise<ShareLink> {
  const { key, id } = await hubKey(env);
  const exp = Math.ceil((opts.now + opts.expiresInSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
  const params = new URLSearchParams({ exp: String(exp), kid: id, sig: await signWithKey(key, message(sessionId, exp, id)) });
  return { url: `${baseUrl.replace(/\/+$/, "")}${SHARE_LINK_PATH_PREFIX}${encodeURIComponent(sessionId)}?${params}`, expires: exp };
}

export type ShareLinkCheck = { valid: true; exp: number } | { valid: false; reason: "signature" | "expired" | "revoked" };

/**
 * Checks a share link's query for `sessionId`. `revoked` means a well-formed link signed with a key
 * this deployment no longer has (the key was rotated); expiry is judged only after the signature holds.
 */
export async function verifyShareLink(env: Env, sessionId: string, query: URLSearchParams, now: number): Promise<ShareLinkCheck> {
  const expText = query.get("exp") ?? "";
  const kid = query.get("kid") ?? "";
  if (!/^\d{1,12}$/.test(expText) || !/^[A-Za-z0-9_-]{8}$/.test(kid)) return { valid: false, reason: "signature" };
  const { key, id } = await hubKey(env);
  if (kid !== id) return { valid: false, reason: "revoked" };
  const exp = Number(expText);
  if (!(await verifyWithKey(key, message(sessionId, exp, kid), query.get("sig")))) return { valid: false, reason: "signature" };
  if (now >= exp) return { valid: false, reason: "expired" };
  return { valid: true, exp };
}
