// Bearer API key authentication plus the per-key rate limit, in one step
// because both need the key's identity and the rate-limit Durable Object is
// also where revocation takes effect immediately (see rate-limiter.ts).
import { and, eq, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { apiKeys } from "../../drizzle/schema";
import type { AppEnv, AuthContext, Environment, Services } from "../env";
import { ApiError } from "../errors";
import { sha256Hex } from "../ids";
import { RATE_LIMIT_PER_MINUTE, type RateDecision } from "../durable-objects/rate-limiter";

const KEY_PATTERN = /^hk_(prod|stg)_[0-9A-Za-z]{32}$/;
const ENV_TAG: Record<Environment, "prod" | "stg"> = { production: "prod", staging: "stg" };
const ENV_NAME = { prod: "production", stg: "staging" } as const;

// Verified keys per isolate: skips the D1 lookup on the hot path. Safe because
// revocation is enforced by the key's rate-limit object on every request.
const verifiedKeys = new Map<string, { auth: AuthContext; cachedAt: number }>();
const CACHE_TTL_MS = 5 * 60_000;
const CACHE_MAX = 10_000;

export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** Resolves a plaintext API key to its organization, or throws the right 401. */
export async function authenticateKey(services: Services, plaintext: string): Promise<AuthContext> {
  const match = KEY_PATTERN.exec(plaintext);
  if (!match) {
    throw new ApiError("invalid_api_key", "The API key is malformed. Keys look like `hk_prod_…` or `hk_stg_…`.");
  }
  const keyEnv = match[1] as "prod" | "stg";
  const serverEnv = ENV_TAG[services.environment];
  if (keyEnv !== serverEnv) {
    throw new ApiError(
      "wrong_environment",
      `This API key was minted for the ${ENV_NAME[keyEnv]} environment (hk_${keyEnv}_…), but this server is ${services.environment} and accepts only hk_${serverEnv}_… keys.`,
    );
  }
  const hash = await sha256Hex(plaintext);
  const cached = verifiedKeys.get(hash);
  if (cached && Date.now() - cached.cachedAt < CACHE_TTL_MS) return cached.auth;

  const row = await services.db
    .select({ id: apiKeys.id, orgId: apiKeys.orgId, prefix: apiKeys.prefix })
    .from(apiKeys)
    .where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)))
    .get();
  if (!row) throw new ApiError("invalid_api_key", "The API key is unknown or has been revoked.");
  const auth = { orgId: row.orgId, apiKeyId: row.id, keyPrefix: row.prefix };
  if (verifiedKeys.size >= CACHE_MAX) verifiedKeys.clear();
  verifiedKeys.set(hash, { auth, cachedAt: Date.now() });
  return auth;
}

export async function checkRateLimit(services: Services, apiKeyId: string): Promise<RateDecision> {
  const stub = services.env.RATE_LIMITER.get(services.env.RATE_LIMITER.idFromName(apiKeyId));
  return stub.hit(RATE_LIMIT_PER_MINUTE);
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    "RateLimit-Limit": String(decision.limit),
    "RateLimit-Remaining": String(decision.remaining),
    "RateLimit-Reset": String(decision.resetSeconds),
  };
}

/** Authenticates with the API key and spends one request of its rate limit. */
export async function authorizeRequest(services: Services, authorization: string | undefined) {
  const plaintext = parseBearer(authorization);
  if (!plaintext) {
    throw new ApiError(
      "missing_api_key",
      "No API key provided. Send it as `Authorization: Bearer <API_KEY>`.",
    );
  }
  const auth = await authenticateKey(services, plaintext);
  const decision = await checkRateLimit(services, auth.apiKeyId);
  if (decision.revoked) {
    throw new ApiError("invalid_api_key", "The API key is unknown or has been revoked.");
  }
  if (!decision.allowed) {
    throw new ApiError(
      "rate_limit_exceeded",
      `Too many requests: the limit is ${decision.limit} per minute per API key. Retry after ${decision.resetSeconds} seconds.`,
      { headers: { ...rateLimitHeaders(decision), "Retry-After": String(decision.resetSeconds) } },
    );
  }
  return { auth, decision };
}

export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const { auth, decision } = await authorizeRequest(c.get("services"), c.req.header("Authorization"));
  c.set("auth", auth);
  await next();
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) c.res.headers.set(name, value);
});
