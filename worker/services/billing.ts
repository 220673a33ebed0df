// Credit balance and the hold → settle/void ledger. Functions take the
// database handle as an argument so they are tested without HTTP.
import { and, eq, gt, sql } from "drizzle-orm";
import { creditGrants, usageEvents } from "../../drizzle/schema";
import type { Database } from "../env";

export const RATE_CENTS_PER_HOUR = 500;
export const CREDIT_LIFETIME_SECONDS = 365 * 24 * 3600;

export interface Balance {
  object: "balance";
  credit_cents: number;
  held_cents: number;
  available_cents: number;
  rate_cents_per_hour: number;
  soonest_expiry: number | null;
}

/** Cost of `seconds` of video: per second at the hourly rate, rounded up to the cent. */
export function costCents(seconds: number): number {
  return Math.ceil((seconds * RATE_CENTS_PER_HOUR) / 3600);
}

export async function getBalance(db: Database, orgId: string, now: number): Promise<Balance> {
  const [credit, held] = await db.batch([
    db
      .select({
        total: sql<number>`coalesce(sum(${creditGrants.remainingCents}), 0)`,
        soonest: sql<number | null>`min(${creditGrants.expiresAt})`,
      })
      .from(creditGrants)
      .where(and(eq(creditGrants.orgId, orgId), gt(creditGrants.expiresAt, now), gt(creditGrants.remainingCents, 0))),
    db
      .select({ total: sql<number>`coalesce(sum(${usageEvents.heldCents}), 0)` })
      .from(usageEvents)
      .where(and(eq(usageEvents.orgId, orgId), eq(usageEvents.status, "held"))),
  ]);
  const creditCents = Number(credit[0]?.total ?? 0);
  const heldCents = Number(held[0]?.total ?? 0);
  return {
    object: "balance",
    credit_cents: creditCents,
    held_cents: heldCents,
    available_cents: creditCents - heldCents,
    rate_cents_per_hour: RATE_CENTS_PER_HOUR,
    soonest_expiry: credit[0]?.soonest == null ? null : Number(credit[0].soonest),
  };
}
