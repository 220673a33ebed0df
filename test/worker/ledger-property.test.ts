// A property test of the ledger (worker/services/billing.ts): random sequences of submit (hold),
// measure (raise the hold to the measured cost, or fail the session), settle, void, credit expiry,
// top-up and auto-recharge, run against the real D1 ledger and against a small model of it. After
// every step: credit = Σ grants − Σ settles − Σ expired, held ≥ 0, available = credit − held, no
// settle exceeds its hold (nor the credit there was), and GET /v1/balance agrees with the ledger rows
// and with the model. A submit is held only when the model says the balance covers it.
//
// Claim is not a step of its own: it changes no ledger row; what it leads to (measure, settle, void)
// is. The expiry step moves a grant's expiry to just before now (the clock itself cannot be moved
// for GET /v1/balance, which reads the real time).
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as schema from "../../drizzle/schema";
import { newId } from "../../worker/ids";
import { insertWhere } from "../../worker/lib/sql";
import { maybeAutoRecharge } from "../../worker/services/auto-recharge";
import { costCents, getBalance, holdExists, placeHold, raiseHold, settleHold, voidHold } from "../../worker/services/billing";
import { addCredits } from "../../worker/services/organizations";
import { LOCAL_DECLINING_PAYMENT_METHOD, LocalPaymentProvider, type ChargeResult, type OffSessionCharge } from "../../worker/services/payments";
import { call, createOrg, type TestOrg } from "./helpers";
import { db, nowSeconds } from "./session-fixtures";

const DAY = 24 * 3600;

type Step =
  | { kind: "submit"; seconds: number }
  | { kind: "measure"; pick: number; seconds: number }
  | { kind: "settle"; pick: number; seconds: number; asMeasured: boolean; roundUp: boolean }
  | { kind: "void"; pick: number }
  | { kind: "expire"; pick: number }
  | { kind: "topUp"; cents: number; days: number }
  | { kind: "setAutoRecharge"; thresholdCents: number; amountCents: number }
  | { kind: "autoRecharge"; decline: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("submit" as const), seconds: fc.integer({ min: 1, max: 4 * 3600 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("measure" as const), pick: fc.nat(), seconds: fc.integer({ min: 1, max: 6 * 3600 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("settle" as const), pick: fc.nat(), seconds: fc.integer({ min: 0, max: 6 * 3600 }), asMeasured: fc.boolean(), roundUp: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("void" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("topUp" as const), cents: fc.integer({ min: 1, max: 2000 }), days: fc.integer({ min: 1, max: 300 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("setAutoRecharge" as const), thresholdCents: fc.integer({ min: 1, max: 1500 }), amountCents: fc.integer({ min: 1, max: 3000 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("autoRecharge" as const), decline: fc.boolean() }) },
);

interface ModelGrant {
  id: string;
  amount: number;
  remaining: number;
  expiresAt: number;
  expired: boolean;
}
interface ModelHold {
  sessionId: string;
  held: number;
  status: "held" | "settled" | "voided";
  measured: number | null;
  settled: number | null;
}

/** The ledger as the rules say it should be, kept by hand beside the real one. */
class Model {
  grants: ModelGrant[] = [];
  holds: ModelHold[] = [];
  autoRecharge: { thresholdCents: number; amountCents: number } | null = null;
  lastRechargeAt: number | null = null;
  private expirySlot = 0;

  credit() {
    return this.grants.filter((g) => !g.expired).reduce((s, g) => s + g.remaining, 0);
  }
  held() {
    return this.live().reduce((s, h) => s + h.held, 0);
  }
  available() {
    return this.credit() - this.held();
  }
  live() {
    return this.holds.filter((h) => h.status === "held");
  }
  /** A distinct expiry per grant, so the soonest-first draw order is never a tie. */
  expiryIn(days: number, now: number) {
    return now + days * DAY + ++this.expirySlot;
  }
  /** Draws `cents` from unexpired grants, soonest expiry first. */
  draw(cents: number) {
    let left = cents;
    for (const g of [...this.grants].filter((g) => !g.expired).sort((a, b) => a.expiresAt - b.expiresAt)) {
      const take = Math.min(g.remaining, left);
      g.remaining -= take;
      left -= take;
    }
    expect(left).toBe(0);
  }
}

/** The local stand-in for Stripe, recording the charges it is asked for; `decline` makes the card decline. */
class LocalPayments extends LocalPaymentProvider {
  charges: OffSessionCharge[] = [];
  decline = false;
  constructor() {
    super("https://api.test", undefined);
  }
  override async chargeOffSession(charge: OffSessionCharge): Promise<ChargeResult> {
    this.charges.push(charge);
    return super.chargeOffSession(this.decline ? { ...charge, paymentMethodId: LOCAL_DECLINING_PAYMENT_METHOD } : charge);
  }
}

/** What POST /v1/sessions commits for the hold: the usage event only if covered, the session only with it. */
async function submit(org: TestOrg, seconds: number, now: number): Promise<string | null> {
  const sessionId = newId("sess");
  await db.$client.batch([
    placeHold(db, { usageEventId: newId("ue"), orgId: org.orgId, sessionId, apiKeyId: org.keyId, heldCents: costCents(seconds), estimatedSeconds: seconds }, now),
    insertWhere(
      db,
      db.insert(schema.sessions).values({
        id: sessionId, orgId: org.orgId, groupId: org.groupId, status: "queued", sourceType: "url", sourceUrl: "https://public.example.test/a.mp4",
        metadata: {}, options: {}, created: now, updated: now,
      }),
      holdExists(sessionId),
    ),
  ]);
  const placed = await db.select().from(schema.usageEvents).where(eq(schema.usageEvents.sessionId, sessionId)).get();
  return placed ? sessionId : null;
}

async function apply(org: TestOrg, model: Model, payments: LocalPayments, s: Step): Promise<void> {
  const now = nowSeconds();
  const pickLive = (pick: number) => {
    const live = model.live();
    return live.length === 0 ? null : live[pick % live.length];
  };
  switch (s.kind) {
    case "submit": {
      const covered = model.available() >= costCents(s.seconds);
      const sessionId = await submit(org, s.seconds, now);
      expect(sessionId !== null, `submit of ${costCents(s.seconds)}¢ with ${model.available()}¢ available`).toBe(covered);
      if (sessionId) model.holds.push({ sessionId, held: costCents(s.seconds), status: "held", measured: null, settled: null });
      return;
    }
    case "measure": {
      const hold = pickLive(s.pick);
      if (!hold) return;
      const needed = costCents(s.seconds);
      const covered = hold.held >= needed || model.available() + hold.held >= needed;
      const outcome = await raiseHold(db, hold.sessionId, s.seconds, now);
      expect(outcome.covered).toBe(covered);
      if (covered) {
        hold.held = Math.max(hold.held, needed);
        hold.measured = s.seconds;
        expect(outcome).toEqual({ covered: true, heldCents: hold.held });
      } else {
        expect(outcome).toMatchObject({ neededCents: needed, heldCents: hold.held, availableCents: model.available() });
        // What failSession does next: the hold is voided, nothing is charged.
        await voidHold(db, hold.sessionId, now);
        hold.status = "voided";
      }
      return;
    }
    case "settle": {
      const hold = pickLive(s.pick);
      if (!hold) return;
      // A measured session settles at its measured length (the result's length may round up by a second).
      const seconds = s.asMeasured && hold.measured !== null ? hold.measured + (s.roundUp ? 1 : 0) : s.seconds;
      const charge = Math.min(costCents(seconds), hold.held, model.credit());
      const outcome = await settleHold(db, hold.sessionId, seconds, now);
      expect(outcome.changed).toBe(true);
      expect(outcome.usageEvent).toMatchObject({ status: "settled", settledCents: charge, heldCents: hold.held, measuredSeconds: seconds });
      model.draw(charge);
      hold.status = "settled";
      hold.settled = charge;
      return;
    }
    case "void": {
      const hold = pickLive(s.pick);
      if (!hold) return;
      expect((await voidHold(db, hold.sessionId, now)).changed).toBe(true);
      hold.status = "voided";
      return;
    }
    case "expire": {
      const live = model.grants.filter((g) => !g.expired);
      if (live.length === 0) return;
      const grant = live[s.pick % live.length];
      await db.update(schema.creditGrants).set({ expiresAt: now - 1 }).where(eq(schema.creditGrants.id, grant.id));
      grant.expired = true;
      grant.expiresAt = now - 1;
      return;
    }
    case "topUp": {
      const expiresAt = model.expiryIn(s.days, now);
      const added = await addCredits(db, org.orgId, { amountCents: s.cents, source: "card_top_up", expiresAt }, now);
      model.grants.push({ id: added.id, amount: s.cents, remaining: s.cents, expiresAt, expired: false });
      return;
    }
    case "setAutoRecharge": {
      await db
        .update(schema.organizations)
        .set({ autoRechargeThresholdCents: s.thresholdCents, autoRechargeAmountCents: s.amountCents, paymentCustomerId: "cus_Local", paymentMethodId: "pm_Local" })
        .where(eq(schema.organizations.id, org.orgId));
      model.autoRecharge = { thresholdCents: s.thresholdCents, amountCents: s.amountCents };
      return;
    }
    case "autoRecharge": {
      payments.decline = s.decline;
      const due = model.autoRecharge !== null && model.available() < model.autoRecharge.thresholdCents && (model.lastRechargeAt === null || model.lastRechargeAt <= now - 3600);
      const outcome = await maybeAutoRecharge(db, payments, org.orgId, now);
      expect(outcome.charged).toBe(due && !s.decline);
      if (due) model.lastRechargeAt = now;
      if (outcome.charged) {
        const row = (await db.select().from(schema.creditGrants).where(eq(schema.creditGrants.id, outcome.grantId)).get())!;
        expect(row).toMatchObject({ amountCents: model.autoRecharge!.amountCents, remainingCents: model.autoRecharge!.amountCents, source: "auto_recharge" });
        model.grants.push({ id: row.id, amount: row.amountCents, remaining: row.amountCents, expiresAt: row.expiresAt, expired: false });
      }
      return;
    }
  }
}

/** The ledger's rows, the balance read and the balance endpoint, against each other and the model. */
async function checkLedger(org: TestOrg, model: Model, label: string): Promise<void> {
  const now = nowSeconds();
  const grants = await db.select().from(schema.creditGrants).where(eq(schema.creditGrants.orgId, org.orgId)).all();
  const events = await db.select().from(schema.usageEvents).where(eq(schema.usageEvents.orgId, org.orgId)).all();
  const costs = await db
    .select({ id: schema.sessions.id, costCents: schema.sessions.costCents })
    .from(schema.sessions)
    .where(eq(schema.sessions.orgId, org.orgId))
    .all();
  const balance = await getBalance(db, org.orgId, now);
  const res = await call("/v1/balance", { key: org.key });
  expect(res.status, label).toBe(200);
  const served: any = await res.json();

  const sumGrants = grants.reduce((s, g) => s + g.amountCents, 0);
  const sumSettles = events.reduce((s, e) => s + (e.status === "settled" ? e.settledCents! : 0), 0);
  const sumExpired = grants.filter((g) => g.expiresAt <= now).reduce((s, g) => s + g.remainingCents, 0);
  const sumHeld = events.filter((e) => e.status === "held").reduce((s, e) => s + e.heldCents, 0);

  expect(balance.credit_cents, `${label}: credit = Σ grants − Σ settles − Σ expired`).toBe(sumGrants - sumSettles - sumExpired);
  expect(balance.held_cents, label).toBe(sumHeld);
  expect(balance.held_cents, label).toBeGreaterThanOrEqual(0);
  expect(balance.available_cents, label).toBe(balance.credit_cents - balance.held_cents);
  for (const g of grants) expect(g.remainingCents, label).toBeGreaterThanOrEqual(0);
  for (const e of events) {
    expect(e.heldCents, label).toBeGreaterThanOrEqual(0);
    if (e.status === "settled") {
      expect(e.settledCents!, `${label}: a settle never exceeds its hold`).toBeLessThanOrEqual(e.heldCents);
      expect(costs.find((c) => c.id === e.sessionId)?.costCents, label).toBe(e.settledCents);
    } else {
      expect(e.settledCents, label).toBeNull();
    }
  }
  // The balance endpoint agrees with the ledger rows, and both with the model.
  expect(served, label).toMatchObject({ object: "balance", credit_cents: balance.credit_cents, held_cents: balance.held_cents, available_cents: balance.available_cents });
  expect({ credit: balance.credit_cents, held: balance.held_cents }, label).toEqual({ credit: model.credit(), held: model.held() });
  for (const g of model.grants) expect(grants.find((r) => r.id === g.id)?.remainingCents, `${label}: grant ${g.id}`).toBe(g.remaining);
  for (const h of model.holds) {
    const e = events.find((r) => r.sessionId === h.sessionId)!;
    expect({ status: e.status, held: e.heldCents, settled: e.settledCents }, label).toEqual({ status: h.status, held: h.held, settled: h.settled });
  }
}

describe("the ledger under random sequences", () => {
  it("keeps credit, held and available consistent, never settles beyond a hold, and the balance endpoint agrees", { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3000 }), fc.array(step, { minLength: 1, maxLength: 24 }), async (startCents, steps) => {
        const org = await createOrg();
        const model = new Model();
        const payments = new LocalPayments();
        if (startCents > 0) {
          const now = nowSeconds();
          const expiresAt = model.expiryIn(200, now);
          const added = await addCredits(db, org.orgId, { amountCents: startCents, source: "invoice", expiresAt }, now);
          model.grants.push({ id: added.id, amount: startCents, remaining: startCents, expiresAt, expired: false });
        }
        await checkLedger(org, model, "start");
        for (const [i, s] of steps.entries()) {
          await apply(org, model, payments, s);
          await checkLedger(org, model, `after step ${i} ${JSON.stringify(s)}`);
        }
      }),
      // Shrinking replays whole sequences against D1 (minutes on a busy machine): report the first failure as found.
      { numRuns: 30, endOnFailure: true },
    );
  });

  it("the settle cap: a hold that was never raised settles at most its amount, and never beyond the credit left", async () => {
    const org = await createOrg();
    const now = nowSeconds();
    await addCredits(db, org.orgId, { amountCents: 2, source: "invoice", expiresAt: now + DAY }, now);
    const sessionId = (await submit(org, 1, now))!; // 1¢ held for "duration_seconds: 1"
    const settled = await settleHold(db, sessionId, 60, now); // the video was 60 s: 9¢
    expect(settled.usageEvent).toMatchObject({ status: "settled", heldCents: 1, settledCents: 1 });
    const balance = await getBalance(db, org.orgId, now);
    expect(balance).toMatchObject({ credit_cents: 1, held_cents: 0, available_cents: 1 });
    // Grants that expired under a hold: the settle takes what is left, not more.
    const other = await createOrg();
    const grant = await addCredits(db, other.orgId, { amountCents: 100, source: "invoice", expiresAt: now + DAY }, now);
    const held = (await submit(other, 720, now))!; // 100¢ held
    await addCredits(db, other.orgId, { amountCents: 30, source: "invoice", expiresAt: now + 2 * DAY }, now);
    await db.update(schema.creditGrants).set({ expiresAt: now - 1 }).where(eq(schema.creditGrants.id, grant.id));
    expect((await settleHold(db, held, 720, now)).usageEvent.settledCents).toBe(30);
    expect((await db.get<{ n: number }>(sql`select coalesce(sum(remaining_cents), 0) as n from credit_grants where org_id = ${other.orgId} and expires_at > ${now}`))?.n).toBe(0);
  });
});
