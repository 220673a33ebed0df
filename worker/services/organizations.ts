// Operator-side domain logic: organizations, groups, API keys, credit grants
// and runner tokens. Plaintext secrets are returned once and only hashed.
import { and, eq, isNull } from "drizzle-orm";
import { apiKeys, creditGrants, groups, organizations, runnerTokens } from "../../drizzle/schema";
import type { Database, Environment, Env } from "../env";
import { ApiError, notFound } from "../errors";
import { newId, randomToken, sha256Hex } from "../ids";
import { CREDIT_LIFETIME_SECONDS } from "./billing";

export async function createOrganization(db: Database, name: string, now: number) {
  const orgId = newId("org");
  const groupId = newId("grp");
  await db.batch([
    db.insert(organizations).values({ id: orgId, name, created: now }),
    db.insert(groups).values({ id: groupId, orgId, name: "Default", isDefault: true, created: now }),
  ]);
  return { id: orgId, object: "organization" as const, name, default_group: groupId, created: now };
}

export async function requireOrganization(db: Database, orgId: string) {
  const org = await db.select().from(organizations).where(eq(organizations.id, orgId)).get();
  if (!org) throw notFound("organization", orgId);
  return org;
}

export async function createGroup(db: Database, orgId: string, name: string, now: number) {
  await requireOrganization(db, orgId);
  const id = newId("grp");
  await db.insert(groups).values({ id, orgId, name, isDefault: false, created: now });
  return { id, object: "group" as const, organization: orgId, name, is_default: false, created: now };
}

export async function mintApiKey(db: Database, orgId: string, environment: Environment, name: string | null, now: number) {
  await requireOrganization(db, orgId);
  const tag: "prod" | "stg" = environment === "production" ? "prod" : "stg";
  const plaintext = `hk_${tag}_${randomToken(32)}`;
  const id = newId("key");
  const prefix = plaintext.slice(0, tag.length + 8);
  await db.insert(apiKeys).values({ id, orgId, name, hash: await sha256Hex(plaintext), prefix, environment: tag, created: now });
  return { id, object: "api_key" as const, organization: orgId, name, environment: tag, prefix, key: plaintext, created: now };
}

/** Revocation is immediate: the key's rate-limit object refuses it first, then D1 records it. */
export async function revokeApiKey(db: Database, env: Env, keyId: string, now: number) {
  const row = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
  if (!row) throw notFound("API key", keyId);
  await env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(keyId)).revoke();
  await db.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
  return { id: keyId, object: "api_key" as const, revoked: true as const, revoked_at: row.revokedAt ?? now };
}

export type GrantSource = (typeof creditGrants.$inferInsert)["source"];

export interface NewGrant {
  amountCents: number;
  source: GrantSource;
  /** Unix seconds; default one year after `now` (credits expire one year after purchase). */
  expiresAt?: number;
  note?: string | null;
  /** The provider's payment behind the grant; unique, so a payment grants once. */
  paymentId?: string;
}

/** The `credit_grants` row for a grant, with the one expiry rule; the caller inserts it. */
export function creditGrantRow(orgId: string, grant: NewGrant, now: number): typeof creditGrants.$inferSelect {
  if (!Number.isInteger(grant.amountCents) || grant.amountCents <= 0) {
    throw new ApiError("parameter_invalid", "amount_cents must be a positive integer.", { param: "amount_cents" });
  }
  return {
    id: newId("cg"),
    orgId,
    amountCents: grant.amountCents,
    remainingCents: grant.amountCents,
    source: grant.source,
    note: grant.note ?? null,
    paymentId: grant.paymentId ?? null,
    created: now,
    expiresAt: grant.expiresAt ?? now + CREDIT_LIFETIME_SECONDS,
  };
}

export function creditGrantObject(row: typeof creditGrants.$inferSelect) {
  return {
    id: row.id,
    object: "credit_grant" as const,
    organization: row.orgId,
    amount_cents: row.amountCents,
    remaining_cents: row.remainingCents,
    source: row.source,
    expires_at: row.expiresAt,
    created: row.created,
  };
}

export async function addCredits(db: Database, orgId: string, grant: NewGrant, now: number) {
  await requireOrganization(db, orgId);
  const row = creditGrantRow(orgId, grant, now);
  await db.insert(creditGrants).values(row);
  return creditGrantObject(row);
}

export async function mintRunnerToken(db: Database, name: string | null, now: number) {
  const plaintext = `hr_${randomToken(40)}`;
  const id = newId("rt");
  await db.insert(runnerTokens).values({ id, name, hash: await sha256Hex(plaintext), prefix: plaintext.slice(0, 9), created: now });
  return { id, object: "runner_token" as const, name, prefix: plaintext.slice(0, 9), token: plaintext, created: now };
}

export async function revokeRunnerToken(db: Database, id: string, now: number) {
  const row = await db.select().from(runnerTokens).where(eq(runnerTokens.id, id)).get();
  if (!row) throw notFound("runner token", id);
  await db.update(runnerTokens).set({ revokedAt: now }).where(and(eq(runnerTokens.id, id), isNull(runnerTokens.revokedAt)));
  return { id, object: "runner_token" as const, revoked: true as const };
}
