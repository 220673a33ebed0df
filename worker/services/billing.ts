// Credit balance and the hold → settle/void ledger. Functions take the
// database handle as an argument so they are tested without HTTP.
//
// The ledger: `credit_grants` hold credit (each expires one year after
// purchase; `remaining_cents` shrinks as it is drawn). A submit places a hold:
// a `usage_events` row in status `held` for the estimated cost. Available =
// unexpired remaining credit − the sum of held amounts. Once the runner has
// measured the video, the hold is raised to the measured cost, or the session
// fails before any work (`raiseHold`). Settling charges the measured length,
// never more than the hold, drawing from the soonest-expiring grants first;
// voiding releases the hold. Both are idempotent: only a `held` event moves.
//
// So nothing is ever charged beyond the balance: a hold is placed or raised
// only when the available balance covers it, and a settle is at most its hold.
import { and, desc, eq, gt, gte, lte, sql, type SQL } from "drizzle-orm";
import { creditGrants, sessions, usageEvents } from "../../drizzle/schema";
import type { Database } from "../env";
import { cursorWhere, unknownCursor } from "../lib/cursor";
import { insertWhere, statement } from "../lib/sql";

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

/** Used when neither `duration_seconds` nor a file size is known at submit. */
export const DEFAULT_ESTIMATE_SECONDS = 2 * 3600;
/**
 * Size → length assumption: 8 Mbit/s (1,000,000 bytes per second), between
 * phone recordings (12–17 Mbit/s) and exported files (4–8 Mbit/s). A file of a
 * higher bitrate gets a larger hold than its length needs; one of a lower
 * bitrate a smaller one, which the measured length then raises (`raiseHold`).
 * The charge is always the measured length (docs/sessions.md, "Holds and
 * charges", "Why 8 Mbit/s").
 */
export const ASSUMED_BYTES_PER_SECOND = 1_000_000;

/** Seconds of video a submit holds credit for. */
export function estimateSeconds(known: { durationSeconds?: number | null; sizeBytes?: number | null }): number {
  if (known.durationSeconds && known.durationSeconds > 0) return known.durationSeconds;
  if (known.sizeBytes && known.sizeBytes > 0) return Math.max(1, Math.ceil(known.sizeBytes / ASSUMED_BYTES_PER_SECOND));
  return DEFAULT_ESTIMATE_SECONDS;
}

/** SQL for the organization's available cents at `now`, evaluated inside the statement that uses it. */
export function availableCentsSql(orgId: string, now: number): SQL<number> {
  return sql<number>`((select coalesce(sum(${creditGrants.remainingCents}), 0) from ${creditGrants}
      where ${creditGrants.orgId} = ${orgId} and ${creditGrants.expiresAt} > ${now} and ${creditGrants.remainingCents} > 0)
    - (select coalesce(sum(${usageEvents.heldCents}), 0) from ${usageEvents}
      where ${usageEvents.orgId} = ${orgId} and ${usageEvents.status} = 'held'))`;
}

export interface Hold {
  usageEventId: string;
  orgId: string;
  sessionId: string;
  apiKeyId: string | null;
  heldCents: number;
  estimatedSeconds: number;
}

/**
 * The statement that places a hold, for the caller's D1 batch: it inserts the
 * `held` usage event only if the available balance covers it (and `also`
 * holds), evaluated inside the batch's transaction, so concurrent submits can
 * never hold more than is available. It changes one row or none; the caller
 * gates its other rows on the event's existence (see `holdExists`).
 */
export function placeHold(db: Database, hold: Hold, now: number, also?: SQL): D1PreparedStatement {
  const covered = sql`${availableCentsSql(hold.orgId, now)} >= ${hold.heldCents}`;
  return insertWhere(
    db,
    db.insert(usageEvents).values({
      id: hold.usageEventId,
      orgId: hold.orgId,
      sessionId: hold.sessionId,
      apiKeyId: hold.apiKeyId,
      status: "held",
      heldCents: hold.heldCents,
      estimatedSeconds: hold.estimatedSeconds,
      created: now,
    }),
    also ? sql`${covered} and ${also}` : covered,
  );
}

/** True inside a batch once the session's hold row exists. */
export function holdExists(sessionId: string): SQL {
  return sql`exists (select 1 from ${usageEvents} where ${usageEvents.sessionId} = ${sessionId})`;
}

export type UsageEventRow = typeof usageEvents.$inferSelect;

export interface LedgerOutcome {
  /** False when the event had already left `held` (a repeated call). */
  changed: boolean;
  usageEvent: UsageEventRow;
}

async function usageEventOf(db: Database, sessionId: string): Promise<UsageEventRow> {
  const row = await db.select().from(usageEvents).where(eq(usageEvents.sessionId, sessionId)).get();
  if (!row) throw new Error(`No usage event for session ${sessionId}`);
  return row;
}

/** SQL for the organization's unexpired remaining credit at `now`. */
function unexpiredCreditSql(orgId: string, now: number): SQL<number> {
  return sql<number>`(select coalesce(sum(${creditGrants.remainingCents}), 0) from ${creditGrants}
    where ${creditGrants.orgId} = ${orgId} and ${creditGrants.expiresAt} > ${now} and ${creditGrants.remainingCents} > 0)`;
}

export type RaiseOutcome =
  | { covered: true; heldCents: number }
  | { covered: false; neededCents: number; heldCents: number; availableCents: number };

/**
 * The runner has measured the video: the session's hold becomes at least the measured cost. The
 * raise is one conditional UPDATE: it happens only if the available balance (this hold aside)
 * covers the new amount, evaluated in the statement, so concurrent raises and submits never hold
 * more than the organization has. A hold already covering the cost is left as it is (the measured
 * length may still round up by a second in the result; the settle is capped at the hold anyway).
 * Not covered: nothing changes, and the caller fails the session (services/jobs.ts `measureJob`).
 */
export async function raiseHold(db: Database, sessionId: string, measuredSeconds: number, now: number): Promise<RaiseOutcome> {
  const needed = costCents(measuredSeconds);
  const event = await usageEventOf(db, sessionId);
  if (event.status !== "held") throw new Error(`The hold of session ${sessionId} is ${event.status}, not held`);
  if (event.heldCents >= needed) return { covered: true, heldCents: event.heldCents };
  const raised = await db
    .update(usageEvents)
    .set({ heldCents: needed })
    .where(
      and(
        eq(usageEvents.sessionId, sessionId),
        eq(usageEvents.status, "held"),
        sql`${availableCentsSql(event.orgId, now)} + ${usageEvents.heldCents} >= ${needed}`,
      ),
    )
    .returning({ heldCents: usageEvents.heldCents });
  if (raised.length > 0) return { covered: true, heldCents: raised[0].heldCents };
  const after = await usageEventOf(db, sessionId);
  if (after.status === "held" && after.heldCents >= needed) return { covered: true, heldCents: after.heldCents };
  const { available_cents } = await getBalance(db, event.orgId, now);
  return { covered: false, neededCents: needed, heldCents: after.heldCents, availableCents: available_cents };
}

/** Attempts of a settle that found the credit drawn by another settle in between (only after grants expired under holds). */
const SETTLE_ATTEMPTS = 5;

/** What a settle of a held session is to charge, read before its writes (`settleStatements`). */
export interface SettlePlan {
  sessionId: string;
  orgId: string;
  measuredSeconds: number;
  chargeCents: number;
}

/**
 * The charge for the measured length of a session whose hold is still held: ceil(seconds × rate /
 * 3600) cents, at most the hold and at most the unexpired credit left (less only when grants expired
 * while the hold was placed). Null when the hold is no longer held (settled or voided).
 */
export async function planSettle(db: Database, sessionId: string, measuredSeconds: number, now: number): Promise<SettlePlan | null> {
  if (!Number.isInteger(measuredSeconds) || measuredSeconds < 0) throw new Error(`measuredSeconds must be a non-negative integer, got ${measuredSeconds}`);
  const event = await usageEventOf(db, sessionId);
  if (event.status !== "held") return null;
  const credit = await db.get<{ n: number }>(sql`select ${unexpiredCreditSql(event.orgId, now)} as n`);
  return { sessionId, orgId: event.orgId, measuredSeconds, chargeCents: Math.min(costCents(measuredSeconds), event.heldCents, Number(credit?.n ?? 0)) };
}

/**
 * A settle's writes, for a D1 batch: the session's `cost_cents`, the draw from the organization's
 * unexpired grants (soonest expiry first), and the usage event `held → settled`. Each checks the same
 * condition before anything is drawn: the hold is still held, the credit still covers the charge, and
 * `guard` (the job lifecycle's lease, when the settle rides in the batch that stores the result). The
 * usage event moves last, once the session carries the charge (which only these writes set), so when
 * the condition fails nothing changes and the settle can be planned again.
 */
export function settleStatements(db: Database, plan: SettlePlan, now: number, guard?: SQL): D1PreparedStatement[] {
  const { sessionId, orgId, measuredSeconds, chargeCents: charge } = plan;
  const stillHeld = sql`exists (select 1 from ${usageEvents} where ${usageEvents.sessionId} = ${sessionId} and ${usageEvents.status} = 'held')`;
  const go = and(stillHeld, sql`${unexpiredCreditSql(orgId, now)} >= ${charge}`, guard)!;
  // `before` is the credit of the grants that expire earlier; each grant gives
  // what is left of the charge after them, up to its remaining credit.
  const draw = sql`with ordered as (
      select id, remaining_cents,
        coalesce(sum(remaining_cents) over (order by expires_at, created, id rows between unbounded preceding and 1 preceding), 0) as before
      from credit_grants
      where org_id = ${orgId} and expires_at > ${now} and remaining_cents > 0
    )
    update credit_grants
    set remaining_cents = credit_grants.remaining_cents - min(ordered.remaining_cents, ${charge} - ordered.before)
    from ordered
    where credit_grants.id = ordered.id and ordered.before < ${charge} and ${go}`;
  return [
    statement(
      db,
      db
        .update(sessions)
        .set({ costCents: charge, updated: now })
        .where(and(eq(sessions.orgId, orgId), eq(sessions.id, sessionId), sql`${sessions.costCents} is null`, go)),
    ),
    statement(db, draw),
    statement(
      db,
      db
        .update(usageEvents)
        .set({ status: "settled", settledCents: charge, measuredSeconds, settledAt: now })
        .where(
          and(
            eq(usageEvents.sessionId, sessionId),
            eq(usageEvents.status, "held"),
            sql`exists (select 1 from ${sessions} where ${sessions.id} = ${sessionId} and ${sessions.costCents} = ${charge})`,
          ),
        ),
    ),
  ];
}

/**
 * Charges the measured length of a session (`planSettle`: never more than the hold, placed at
 * submit and raised to the measured cost before the analysis started, nor than the unexpired credit
 * left). The charge is drawn from the organization's unexpired grants, soonest expiry first, and
 * moves the usage event `held → settled` (also recording it as the session's `cost_cents`). So
 * `settled_cents` is always exactly what was drawn, and no settle takes more than the organization
 * had. Idempotent: a settled or voided event is returned unchanged. The job lifecycle settles in the
 * batch that stores the result (services/jobs.ts), and this finishes a settle that batch could not
 * make. Auto-recharge is the caller's next step (`rechargeAfterSettle` in services/auto-recharge.ts,
 * which sits above this module): the ledger knows nothing of payments.
 */
export async function settleHold(
  db: Database,
  sessionId: string,
  measuredSeconds: number,
  now: number,
): Promise<LedgerOutcome> {
  for (let attempt = 1; ; attempt++) {
    const plan = await planSettle(db, sessionId, measuredSeconds, now);
    if (!plan) return { changed: false, usageEvent: await usageEventOf(db, sessionId) };
    const [, , settled] = await db.$client.batch(settleStatements(db, plan, now));
    if (settled.meta.changes > 0 || attempt >= SETTLE_ATTEMPTS) {
      return { changed: settled.meta.changes > 0, usageEvent: await usageEventOf(db, sessionId) };
    }
  }
}

/**
 * The void's one write (`held → voided`), for a batch of the caller's (the job lifecycle fails a
 * session and voids its hold in one transaction), guarded by `guard` when given.
 */
export function voidHoldWrite(db: Database, sessionId: string, now: number, guard?: SQL) {
  return db
    .update(usageEvents)
    .set({ status: "voided", voidedAt: now })
    .where(and(eq(usageEvents.sessionId, sessionId), eq(usageEvents.status, "held"), guard));
}

/** Releases a session's hold (`held → voided`); nothing is charged. Idempotent. */
export async function voidHold(db: Database, sessionId: string, now: number): Promise<LedgerOutcome> {
  const voided = await voidHoldWrite(db, sessionId, now).returning();
  if (voided.length > 0) return { changed: true, usageEvent: voided[0] };
  return { changed: false, usageEvent: await usageEventOf(db, sessionId) };
}

export interface UsageEventObject {
  id: string;
  object: "usage_event";
  session: string;
  api_key: string | null;
  status: "held" | "settled" | "voided";
  held_cents: number;
  settled_cents: number | null;
  estimated_seconds: number;
  measured_seconds: number | null;
  created: number;
  settled_at: number | null;
  voided_at: number | null;
}

export function usageEventObject(row: UsageEventRow): UsageEventObject {
  return {
    id: row.id,
    object: "usage_event",
    session: row.sessionId,
    api_key: row.apiKeyId,
    status: row.status,
    held_cents: row.heldCents,
    settled_cents: row.settledCents,
    estimated_seconds: row.estimatedSeconds,
    measured_seconds: row.measuredSeconds,
    created: row.created,
    settled_at: row.settledAt,
    voided_at: row.voidedAt,
  };
}

export interface UsageFilter {
  status?: UsageEventRow["status"];
  apiKeyId?: string;
  createdGte?: number;
  createdLte?: number;
}

/**
 * One page (fetched with one extra row, for `takePage`) of the organization's
 * usage events, newest first (`created`, then id), after the event
 * `startingAfter` when given.
 */
export async function listUsageEvents(
  db: Database,
  orgId: string,
  filter: UsageFilter,
  page: { limit: number; startingAfter?: string },
) {
  let after: { created: number; id: string } | undefined;
  if (page.startingAfter !== undefined) {
    after = await db
      .select({ created: usageEvents.created, id: usageEvents.id })
      .from(usageEvents)
      .where(and(eq(usageEvents.orgId, orgId), eq(usageEvents.id, page.startingAfter)))
      .get();
    if (!after) throw unknownCursor("usage event", page.startingAfter);
  }
  const where = and(
    eq(usageEvents.orgId, orgId),
    filter.status ? eq(usageEvents.status, filter.status) : undefined,
    filter.apiKeyId ? eq(usageEvents.apiKeyId, filter.apiKeyId) : undefined,
    filter.createdGte !== undefined ? gte(usageEvents.created, filter.createdGte) : undefined,
    filter.createdLte !== undefined ? lte(usageEvents.created, filter.createdLte) : undefined,
  );
  const [rows, count] = await db.batch([
    db
      .select()
      .from(usageEvents)
      .where(
        and(
          where,
          after ? cursorWhere(usageEvents.created, usageEvents.id, after) : undefined,
        ),
      )
      .orderBy(desc(usageEvents.created), desc(usageEvents.id))
      .limit(page.limit + 1),
    db.select({ n: sql<number>`count(*)` }).from(usageEvents).where(where),
  ]);
  return { rows, totalCount: Number(count[0]?.n ?? 0) };
}
