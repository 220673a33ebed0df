import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../drizzle/schema";
import { newId } from "../../worker/ids";
import { maybeAutoRecharge, rechargeAfterSettle } from "../../worker/services/auto-recharge";
import { ASSUMED_BYTES_PER_SECOND, costCents, estimateSeconds, getBalance, planSettle, settleHold, settleStatements, voidHold } from "../../worker/services/billing";
import { LOCAL_DECLINING_PAYMENT_METHOD, LocalPaymentProvider, type ChargeResult, type OffSessionCharge, type PaymentProvider } from "../../worker/services/payments";
import { admin, BASE, call, createOrg, expectError, type TestOrg } from "./helpers";
import { db, nowSeconds } from "./session-fixtures";

const DAY = 24 * 3600;

async function grant(org: TestOrg, cents: number, expiresAt: number) {
  return (await admin("POST", `/admin/v1/organizations/${org.orgId}/credits`, { amount_cents: cents, expires_at: expiresAt })).id as string;
}

async function remaining(grantId: string) {
  return (await db.select().from(schema.creditGrants).where(eq(schema.creditGrants.id, grantId)).get())!.remainingCents;
}

/** A queued session with a held usage event, as POST /v1/sessions leaves it. */
async function heldSession(org: TestOrg, heldCents: number, opts: { created?: number } = {}) {
  const sessionId = newId("sess");
  const created = opts.created ?? nowSeconds();
  await db.batch([
    db.insert(schema.sessions).values({
      id: sessionId, orgId: org.orgId, groupId: org.groupId, status: "queued", sourceType: "url", sourceUrl: "https://public.example.test/a.mp4",
      metadata: {}, options: {}, created, updated: created,
    }),
    db.insert(schema.usageEvents).values({
      id: newId("ue"), orgId: org.orgId, sessionId, apiKeyId: org.keyId, status: "held", heldCents, estimatedSeconds: Math.ceil((heldCents * 3600) / 500), created,
    }),
  ]);
  return sessionId;
}

describe("estimates and cost", () => {
  it("rounds per-second cost up to the cent and estimates from duration, size, or 2 hours", () => {
    expect(costCents(1)).toBe(1);
    expect(costCents(3600)).toBe(500);
    expect(costCents(3601)).toBe(501);
    expect(costCents(0)).toBe(0);
    expect(estimateSeconds({ durationSeconds: 90, sizeBytes: 1e12 })).toBe(90);
    expect(estimateSeconds({ sizeBytes: 3 * ASSUMED_BYTES_PER_SECOND + 1 })).toBe(4);
    expect(estimateSeconds({})).toBe(7200);
  });
});

describe("settleHold", () => {
  it("charges the measured length, drawing the soonest-expiring unexpired grants first", async () => {
    const org = await createOrg();
    const now = nowSeconds();
    const late = await grant(org, 1000, now + 300 * DAY);
    const soon = await grant(org, 300, now + 10 * DAY);
    const expired = await grant(org, 5000, now - 1);
    const sessionId = await heldSession(org, 1000);

    const outcome = await settleHold(db, sessionId, 3000, now);
    expect(outcome.changed).toBe(true);
    expect(outcome.usageEvent).toMatchObject({ status: "settled", settledCents: 417, measuredSeconds: 3000, settledAt: now, heldCents: 1000 });
    expect(await remaining(soon)).toBe(0);
    expect(await remaining(late)).toBe(1000 - 117);
    expect(await remaining(expired)).toBe(5000);
    expect((await db.select().from(schema.sessions).where(eq(schema.sessions.id, sessionId)).get())!.costCents).toBe(417);
    expect(await getBalance(db, org.orgId, now)).toMatchObject({ credit_cents: 883, held_cents: 0, available_cents: 883 });
  });

  it("is idempotent: a second settle changes nothing", async () => {
    const org = await createOrg();
    const now = nowSeconds();
    const g = await grant(org, 1000, now + DAY);
    const sessionId = await heldSession(org, 500);
    await settleHold(db, sessionId, 360, now);
    const again = await settleHold(db, sessionId, 3600, now + 5);
    expect(again.changed).toBe(false);
    expect(again.usageEvent).toMatchObject({ status: "settled", settledCents: 50, measuredSeconds: 360 });
    expect(await remaining(g)).toBe(950);
  });

  it("settles concurrently without drawing a grant twice", async () => {
    const org = await createOrg();
    const now = nowSeconds();
    const a = await grant(org, 100, now + DAY);
    const b = await grant(org, 10_000, now + 2 * DAY);
    const sessions = await Promise.all(Array.from({ length: 5 }, () => heldSession(org, 100)));
    await Promise.all([...sessions, ...sessions].map((id) => settleHold(db, id, 720, now))); // 100 cents each, every session twice
    expect(await remaining(a)).toBe(0);
    expect(await remaining(b)).toBe(10_000 - 400);
  });

  it("as writes of another batch: nothing changes when its guard fails or the plan went stale, and a settle planned afresh charges once", async () => {
    const org = await createOrg();
    const now = nowSeconds();
    const g = await grant(org, 1000, now + DAY);
    const sessionId = await heldSession(org, 500);
    const session = async () => (await db.select().from(schema.sessions).where(eq(schema.sessions.id, sessionId)).get())!;
    const plan = (await planSettle(db, sessionId, 360, now))!;
    expect(plan).toEqual({ sessionId, orgId: org.orgId, measuredSeconds: 360, chargeCents: 50 });
    // The batch's own condition fails (the job lifecycle's lease moved on): no write lands.
    await db.$client.batch(settleStatements(db, plan, now, sql`0`));
    expect((await session()).costCents).toBeNull();
    expect(await remaining(g)).toBe(1000);
    // The credit moved after planning (only grants expiring under holds can make it short): no write lands.
    await db.update(schema.creditGrants).set({ remainingCents: 40 }).where(eq(schema.creditGrants.id, g));
    await db.$client.batch(settleStatements(db, plan, now));
    expect((await session()).costCents).toBeNull();
    expect((await db.select().from(schema.usageEvents).where(eq(schema.usageEvents.sessionId, sessionId)).get())!.status).toBe("held");
    expect(await remaining(g)).toBe(40);
    // Planned again, the settle charges what is left, once; a settled hold plans nothing.
    expect((await settleHold(db, sessionId, 360, now)).usageEvent).toMatchObject({ status: "settled", settledCents: 40 });
    expect((await session()).costCents).toBe(40);
    expect(await remaining(g)).toBe(0);
    expect(await planSettle(db, sessionId, 360, now)).toBeNull();
    await db.$client.batch(settleStatements(db, plan, now));
    expect(await remaining(g)).toBe(0);
  });

  it("never charges beyond the hold: a measured cost above it settles at the hold (issue 22)", async () => {
    const org = await createOrg();
    const now = nowSeconds();
    const g = await grant(org, 100, now + DAY);
    const sessionId = await heldSession(org, 50);
    const outcome = await settleHold(db, sessionId, 7200, now);
    expect(outcome.usageEvent).toMatchObject({ status: "settled", heldCents: 50, settledCents: 50, measuredSeconds: 7200 });
    expect(await remaining(g)).toBe(50);
    expect((await db.select().from(schema.sessions).where(eq(schema.sessions.id, sessionId)).get())!.costCents).toBe(50);
  });
});

describe("voidHold", () => {
  it("releases the hold without charging; idempotent; a voided hold never settles", async () => {
    const org = await createOrg();
    const now = nowSeconds();
    const g = await grant(org, 1000, now + DAY);
    const sessionId = await heldSession(org, 800);
    expect((await getBalance(db, org.orgId, now)).available_cents).toBe(200);
    const voided = await voidHold(db, sessionId, now);
    expect(voided).toMatchObject({ changed: true, usageEvent: { status: "voided", voidedAt: now, settledCents: null } });
    expect((await voidHold(db, sessionId, now + 1)).changed).toBe(false);
    expect((await settleHold(db, sessionId, 60, now + 2)).changed).toBe(false);
    expect(await remaining(g)).toBe(1000);
    expect((await getBalance(db, org.orgId, now)).available_cents).toBe(1000);
  });

  it("leaves a settled event alone", async () => {
    const org = await createOrg();
    const now = nowSeconds();
    await grant(org, 1000, now + DAY);
    const sessionId = await heldSession(org, 100);
    await settleHold(db, sessionId, 60, now);
    const outcome = await voidHold(db, sessionId, now);
    expect(outcome).toMatchObject({ changed: false, usageEvent: { status: "settled" } });
  });
});

describe("GET /v1/usage", () => {
  it("lists one event per job with its fields, newest first, filtered and cursor-paged", async () => {
    const org = await createOrg();
    const other = await createOrg();
    const secondKey = await admin("POST", `/admin/v1/organizations/${org.orgId}/api_keys`, { name: "second" });
    const now = nowSeconds();
    await grant(org, 100_000, now + DAY);
    const s1 = await heldSession(org, 100, { created: now - 300 });
    const s2 = await heldSession(org, 200, { created: now - 200 });
    const s3 = await heldSession(org, 300, { created: now - 100 });
    await heldSession(other, 999);
    await settleHold(db, s1, 600, now);
    await voidHold(db, s2, now);
    await db.update(schema.usageEvents).set({ apiKeyId: secondKey.id }).where(eq(schema.usageEvents.sessionId, s3));

    const all: any = await (await call("/v1/usage", { key: org.key })).json();
    expect(all).toMatchObject({ object: "list", total_count: 3, has_more: false });
    expect(all.data.map((e: any) => e.session)).toEqual([s3, s2, s1]);
    expect(all.data[2]).toEqual({
      id: expect.stringMatching(/^ue_/),
      object: "usage_event",
      session: s1,
      api_key: org.keyId,
      status: "settled",
      held_cents: 100,
      settled_cents: 84,
      estimated_seconds: 720,
      measured_seconds: 600,
      created: now - 300,
      settled_at: now,
      voided_at: null,
    });

    const q = async (query: string) => ((await (await call(`/v1/usage?${query}`, { key: org.key })).json()) as any).data.map((e: any) => e.session);
    expect(await q("status=voided")).toEqual([s2]);
    expect(await q("status=held")).toEqual([s3]);
    expect(await q(`api_key=${secondKey.id}`)).toEqual([s3]);
    expect(await q(`created[gte]=${now - 200}`)).toEqual([s3, s2]);
    expect(await q(`created[lte]=${now - 200}`)).toEqual([s2, s1]);
    expect(await q(`created[gte]=${now - 250}&created[lte]=${now - 150}`)).toEqual([s2]);

    const page1: any = await (await call("/v1/usage?limit=2", { key: org.key })).json();
    expect(page1.has_more).toBe(true);
    const page2: any = await (await call(`/v1/usage?limit=2&starting_after=${page1.data[1].id}`, { key: org.key })).json();
    expect(page2.data.map((e: any) => e.session)).toEqual([s1]);
    expect(page2.has_more).toBe(false);

    await expectError(await call("/v1/usage?status=pending", { key: org.key }), 400, "parameter_invalid", "status");
    await expectError(await call(`/v1/usage?starting_after=${page1.data[0].id}`, { key: other.key }), 400, "parameter_invalid", "starting_after");
  });
});

/** The local stand-in for Stripe, recording the charges it is asked for. */
class LocalPayments extends LocalPaymentProvider {
  charges: OffSessionCharge[] = [];
  constructor(private readonly outcome: "succeed" | "decline" = "succeed") {
    super(BASE, undefined);
  }
  override async chargeOffSession(charge: OffSessionCharge): Promise<ChargeResult> {
    this.charges.push(charge);
    return super.chargeOffSession(this.outcome === "succeed" ? charge : { ...charge, paymentMethodId: LOCAL_DECLINING_PAYMENT_METHOD });
  }
}

const setAutoRecharge = (org: TestOrg, body: unknown) =>
  call(`/admin/v1/organizations/${org.orgId}/auto_recharge`, { method: "PATCH", json: body, headers: { Authorization: `Bearer op_test_operator_token_0123456789abcdef` } });

/** What the job lifecycle does on success (services/lifecycle.ts): settle, then the recharge step. */
async function settleThenRecharge(sessionId: string, seconds: number, now: number, payments: PaymentProvider) {
  const settled = await settleHold(db, sessionId, seconds, now);
  await rechargeAfterSettle(db, payments, settled, now);
  return settled;
}

describe("auto-recharge", () => {
  const settings = { enabled: true, threshold_cents: 500, amount_cents: 2000, payment_customer_id: "cus_Test123", payment_method_id: "pm_Test456" };

  it("is set and switched off by the operator", async () => {
    const org = await createOrg();
    const res = await setAutoRecharge(org, settings);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      object: "auto_recharge", organization: org.orgId, enabled: true, threshold_cents: 500, amount_cents: 2000,
      payment_customer_id: "cus_Test123", payment_method_id: "pm_Test456", last_charged_at: null,
    });
    expect(((await (await setAutoRecharge(org, { enabled: false })).json()) as any).enabled).toBe(false);
    await expectError(await setAutoRecharge(org, { enabled: true, threshold_cents: 500 }), 400, "parameter_invalid");
    await expectError(await setAutoRecharge(org, { ...settings, payment_method_id: "tok_x" }), 400, "parameter_invalid", "payment_method_id");
    await expectError(
      await call("/admin/v1/organizations/org_nope/auto_recharge", { method: "PATCH", json: settings, headers: { Authorization: "Bearer op_test_operator_token_0123456789abcdef" } }),
      404,
      "resource_missing",
    );
  });

  it("charges once when a settle drops available credit below the threshold, then at most once an hour", async () => {
    const org = await createOrg();
    await setAutoRecharge(org, settings);
    const now = nowSeconds();
    await grant(org, 1000, now + DAY);
    const payments = new LocalPayments();
    const first = await heldSession(org, 600);
    await settleThenRecharge(first, 3600, now, payments); // 500 charged: 500 left, not below 500
    expect(payments.charges).toHaveLength(0);

    const second = await heldSession(org, 100);
    await settleThenRecharge(second, 36, now, payments); // 5 charged: 495 < 500
    expect(payments.charges).toEqual([
      {
        customerId: "cus_Test123", paymentMethodId: "pm_Test456", amountCents: 2000, idempotencyKey: `auto_recharge:${org.orgId}:${now}`,
        description: expect.any(String), metadata: { organization: org.orgId, reason: "auto_recharge" },
      },
    ]);
    const grants = await db.select().from(schema.creditGrants).where(eq(schema.creditGrants.orgId, org.orgId));
    expect(grants.find((g) => g.source === "auto_recharge")).toMatchObject({ amountCents: 2000, remainingCents: 2000, expiresAt: now + 365 * DAY });
    expect((await getBalance(db, org.orgId, now)).available_cents).toBe(2495);

    // Below the threshold again within the hour: no second charge.
    await db.update(schema.creditGrants).set({ remainingCents: 0 }).where(eq(schema.creditGrants.orgId, org.orgId));
    expect(await maybeAutoRecharge(db, payments, org.orgId, now + 3599)).toEqual({ charged: false, reason: "too_soon" });
    expect((await maybeAutoRecharge(db, payments, org.orgId, now + 3600)).charged).toBe(true);
    expect(payments.charges).toHaveLength(2);
  });

  it("charges once for concurrent settles", async () => {
    const org = await createOrg();
    await setAutoRecharge(org, settings);
    const now = nowSeconds();
    await grant(org, 600, now + DAY);
    const payments = new LocalPayments();
    const ids = await Promise.all(Array.from({ length: 4 }, () => heldSession(org, 100)));
    await Promise.all(ids.map((id) => settleThenRecharge(id, 360, now, payments)));
    expect(payments.charges).toHaveLength(1);
  });

  it("adds nothing when the card is declined, does not fail the settle, and waits an hour to retry", async () => {
    const org = await createOrg();
    await setAutoRecharge(org, settings);
    const now = nowSeconds();
    await grant(org, 100, now + DAY);
    const payments = new LocalPayments("decline");
    const id = await heldSession(org, 100);
    expect((await settleThenRecharge(id, 360, now, payments)).changed).toBe(true);
    expect(payments.charges).toHaveLength(1);
    const grants = await db.select().from(schema.creditGrants).where(eq(schema.creditGrants.orgId, org.orgId));
    expect(grants.some((g) => g.source === "auto_recharge")).toBe(false);
    expect(await maybeAutoRecharge(db, payments, org.orgId, now + 60)).toEqual({ charged: false, reason: "too_soon" });
  });

  it("is not tried again by a repeated settle, nor without a payment provider", async () => {
    const org = await createOrg();
    await setAutoRecharge(org, settings);
    const now = nowSeconds();
    await grant(org, 100, now + DAY);
    const id = await heldSession(org, 100);
    const payments = new LocalPayments();
    const settled = await settleHold(db, id, 360, now); // 50 left, below the threshold
    await rechargeAfterSettle(db, null, settled, now);
    const again = await settleHold(db, id, 360, now);
    expect(again.changed).toBe(false);
    await rechargeAfterSettle(db, payments, again, now);
    expect(payments.charges).toHaveLength(0);
    await rechargeAfterSettle(db, payments, settled, now);
    expect(payments.charges).toHaveLength(1);
  });

  it("does nothing for an organization without the setting", async () => {
    const org = await createOrg();
    expect(await maybeAutoRecharge(db, new LocalPayments(), org.orgId, nowSeconds())).toEqual({ charged: false, reason: "not_configured" });
  });
});

describe("the payment provider", () => {
  it("is Stripe with STRIPE_SECRET_KEY, else the local stand-in with LOCAL_PAYMENTS, else none", async () => {
    const { paymentProviderFrom, StripePaymentProvider } = await import("../../worker/services/payments");
    expect(paymentProviderFrom({ ...env, LOCAL_PAYMENTS: undefined } as never)).toBeNull();
    expect(paymentProviderFrom({ ...env, LOCAL_PAYMENTS: "true" } as never)).toBeInstanceOf(LocalPaymentProvider);
    expect(paymentProviderFrom({ ...env, STRIPE_SECRET_KEY: "sk_test_x" } as never)).toBeInstanceOf(StripePaymentProvider);
  });
});
