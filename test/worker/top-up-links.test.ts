// Card top-up links (issue 22, point 2): the operator creates a link; the payment provider's
// signed confirmation grants the amount exactly once. Confirmations here are signed with
// Stripe's own SDK helper, independently of the Worker's signer, with the secret the Worker is
// configured with (vitest.config.ts).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import * as schema from "../../drizzle/schema";
import { buildServices } from "../../worker/middleware/services";
import { StripePaymentProvider } from "../../worker/services/payments";
import { admin, call, createOrg, expectError, OPERATOR_TOKEN, type TestOrg } from "./helpers";
import { db, nowSeconds } from "./session-fixtures";

const WEBHOOK_SECRET = env.STRIPE_WEBHOOK_SECRET!;

const createLink = (orgId: string, body: unknown, auth: string | null = OPERATOR_TOKEN) =>
  call(`/admin/v1/organizations/${orgId}/top_up_links`, { method: "POST", json: body, headers: auth ? { Authorization: `Bearer ${auth}` } : {} });

async function newLink(org: TestOrg, amountCents: number) {
  const res = await createLink(org.orgId, { amount_cents: amountCents });
  expect(res.status).toBe(200);
  const link: any = await res.json();
  const row = (await db.select().from(schema.topUpLinks).where(eq(schema.topUpLinks.id, link.id)).get())!;
  return { link, checkoutId: row.checkoutId };
}

/** A `checkout.session.completed` event as Stripe sends it for a paid card checkout. */
function completedEvent(checkoutId: string, amountCents: number, created = nowSeconds()) {
  return JSON.stringify({
    id: `evt_test_${crypto.randomUUID().replace(/-/g, "")}`,
    object: "event",
    type: "checkout.session.completed",
    created,
    livemode: false,
    data: { object: { id: checkoutId, object: "checkout.session", mode: "payment", payment_status: "paid", status: "complete", amount_total: amountCents, currency: "usd" } },
  });
}

async function stripeSignature(payload: string, opts: { secret?: string; timestamp?: number } = {}) {
  return Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: opts.secret ?? WEBHOOK_SECRET,
    timestamp: opts.timestamp ?? nowSeconds(),
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
}

const confirm = (body: string, signature: string | null) =>
  call("/payments/webhook", { method: "POST", body, headers: { "Content-Type": "application/json", ...(signature ? { "Stripe-Signature": signature } : {}) } });

async function availableCents(org: TestOrg): Promise<number> {
  return ((await (await call("/v1/balance", { key: org.key })).json()) as any).available_cents;
}

async function topUpGrants(org: TestOrg) {
  return (await db.select().from(schema.creditGrants).where(eq(schema.creditGrants.orgId, org.orgId))).filter((g) => g.source === "card_top_up");
}

describe("POST /admin/v1/organizations/{id}/top_up_links", () => {
  it("creates a 24-hour link to the payment page for the organization and amount", async () => {
    const org = await createOrg();
    const res = await createLink(org.orgId, { amount_cents: 5000 });
    expect(res.status).toBe(200);
    const link: any = await res.json();
    expect(link).toEqual({
      id: expect.stringMatching(/^tul_/),
      object: "top_up_link",
      organization: org.orgId,
      amount_cents: 5000,
      currency: "usd",
      url: expect.stringMatching(/^https:\/\/api\.test\/local-checkout\/cs_local_[A-Za-z0-9]+$/),
      status: "open",
      expires_at: link.created + 24 * 3600,
      created: expect.any(Number),
      paid_at: null,
      credit_grant: null,
    });
    expect(await admin("GET", `/admin/v1/top_up_links/${link.id}`)).toEqual(link);
    // Creating a link adds nothing.
    expect(await availableCents(org)).toBe(0);
  });

  it("needs the operator token: no token and a customer API key are refused", async () => {
    const org = await createOrg();
    await expectError(await createLink(org.orgId, { amount_cents: 5000 }, null), 401, "invalid_operator_token");
    await expectError(await createLink(org.orgId, { amount_cents: 5000 }, org.key), 401, "invalid_operator_token");
    expect(await db.select().from(schema.topUpLinks).where(eq(schema.topUpLinks.orgId, org.orgId))).toEqual([]);
  });

  it("refuses a bad amount with 400 parameter_invalid naming amount_cents, and an unknown organization with 404", async () => {
    const org = await createOrg();
    for (const amount of [0, -100, 99, 1.5, "5000", null, 100_000_000]) {
      await expectError(await createLink(org.orgId, { amount_cents: amount }), 400, "parameter_invalid", "amount_cents");
    }
    await expectError(await createLink(org.orgId, {}), 400, "parameter_invalid", "amount_cents");
    await expectError(await createLink("org_nope", { amount_cents: 5000 }), 404, "resource_missing");
  });
});

describe("POST /payments/webhook (the provider's signed confirmation)", () => {
  it("grants exactly the amount once, as a card_top_up grant, and marks the link paid", async () => {
    const org = await createOrg({ creditsCents: 300 });
    const { link, checkoutId } = await newLink(org, 5000);
    const body = completedEvent(checkoutId, 5000);
    const res = await confirm(body, await stripeSignature(body));
    expect(res.status).toBe(200);
    const answer: any = await res.json();
    expect(answer).toMatchObject({ received: true, granted: true, top_up_link: link.id, credit_grant: expect.stringMatching(/^cg_/) });
    expect(await availableCents(org)).toBe(5300);
    const grants = await topUpGrants(org);
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ id: answer.credit_grant, amountCents: 5000, remainingCents: 5000, paymentId: checkoutId });
    expect(await admin("GET", `/admin/v1/top_up_links/${link.id}`)).toMatchObject({ status: "paid", credit_grant: answer.credit_grant, paid_at: expect.any(Number) });
  });

  it("grants nothing for the same confirmation replayed, a second event for the same payment, or concurrent duplicates", async () => {
    const org = await createOrg();
    const { checkoutId } = await newLink(org, 2500);
    const body = completedEvent(checkoutId, 2500);
    const signature = await stripeSignature(body);
    const results = await Promise.all(Array.from({ length: 4 }, () => confirm(body, signature)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const answers: any[] = await Promise.all(results.map((r) => r.json()));
    expect(answers.filter((a) => a.granted)).toHaveLength(1);
    expect(answers.filter((a) => !a.granted).map((a) => a.reason)).toEqual(["already_granted", "already_granted", "already_granted"]);

    const replay = await confirm(body, signature);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ granted: false, reason: "already_granted" });
    // Another event (new id) about the same paid checkout, e.g. Stripe's async_payment_succeeded.
    const other = completedEvent(checkoutId, 2500);
    expect(await (await confirm(other, await stripeSignature(other))).json()).toMatchObject({ granted: false, reason: "already_granted" });

    expect(await availableCents(org)).toBe(2500);
    expect(await topUpGrants(org)).toHaveLength(1);
  });

  it("answers 400 in the error envelope and grants nothing when the signature does not verify", async () => {
    const org = await createOrg();
    const { checkoutId } = await newLink(org, 4000);
    const body = completedEvent(checkoutId, 4000);
    const good = await stripeSignature(body);
    const tamperedSignature = good.replace(/v1=([0-9a-f])/, (_, ch: string) => `v1=${ch === "0" ? "1" : "0"}`);
    expect(tamperedSignature).not.toBe(good);
    const refusals = [
      await confirm(body, tamperedSignature),
      await confirm(body.replace('"amount_total":4000', '"amount_total":9000'), good), // the body changed after signing
      await confirm(body, await stripeSignature(body, { secret: "whsec_someone_else_0123456789abcdef" })),
      await confirm(body, await stripeSignature(body, { timestamp: nowSeconds() - 301 })), // older than the 5-minute tolerance
      await confirm(body, "t=123,v1=nothex"),
      await confirm(body, null),
    ];
    for (const res of refusals) await expectError(res, 400, "signature_verification_failed", "Stripe-Signature");
    expect(await availableCents(org)).toBe(0);
    expect(await topUpGrants(org)).toEqual([]);
  });

  it("grants nothing for an unknown checkout or one paid after its link expired, and acknowledges other events", async () => {
    const org = await createOrg();
    const unknown = completedEvent("cs_test_not_ours", 5000);
    const res = await confirm(unknown, await stripeSignature(unknown));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ granted: false, reason: "unknown_link" });

    const { link, checkoutId } = await newLink(org, 5000);
    await db.update(schema.topUpLinks).set({ expiresAt: nowSeconds() - 10 }).where(eq(schema.topUpLinks.id, link.id));
    expect(await admin("GET", `/admin/v1/top_up_links/${link.id}`)).toMatchObject({ status: "expired" });
    const late = completedEvent(checkoutId, 5000);
    expect(await (await confirm(late, await stripeSignature(late))).json()).toMatchObject({ granted: false, reason: "paid_after_expiry" });

    const { checkoutId: other } = await newLink(org, 5000);
    const wrongAmount = completedEvent(other, 4999);
    expect(await (await confirm(wrongAmount, await stripeSignature(wrongAmount))).json()).toMatchObject({ granted: false, reason: "amount_mismatch" });
    const unpaid = completedEvent(other, 5000).replace('"payment_status":"paid"', '"payment_status":"unpaid"');
    expect(await (await confirm(unpaid, await stripeSignature(unpaid))).json()).toMatchObject({ granted: false, reason: "not_a_payment" });

    expect(await availableCents(org)).toBe(0);
    expect(await topUpGrants(org)).toEqual([]);
  });
});

describe("the local stand-in for Stripe Checkout", () => {
  it("serves the link's page; paying it sends the Worker a signed confirmation that grants the amount once", async () => {
    const org = await createOrg();
    const { link } = await newLink(org, 1234);
    const path = new URL(link.url).pathname;
    const page = await call(path, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Pay $12.34");

    const paid = await call(path, { method: "POST" });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ paid: true, already_paid: false, confirmation: { status: 200, body: { granted: true } } });
    expect(await availableCents(org)).toBe(1234);

    const again = await call(path, { method: "POST", headers: { Accept: "text/html" }, redirect: "manual" });
    expect(again.status).toBe(303);
    expect(again.headers.get("Location")).toBe("/top-up/complete");
    expect(await availableCents(org)).toBe(1234);
    expect(await topUpGrants(org)).toHaveLength(1);
  });

  it("takes no payment on an expired checkout, and knows no other checkout", async () => {
    const org = await createOrg();
    const { link } = await newLink(org, 1000);
    await db.update(schema.topUpLinks).set({ expiresAt: nowSeconds() - 1 }).where(eq(schema.topUpLinks.id, link.id));
    await expectError(await call(new URL(link.url).pathname, { method: "POST" }), 410, "checkout_expired");
    await expectError(await call("/local-checkout/cs_local_nope", { method: "POST" }), 404, "resource_missing");
    expect(await availableCents(org)).toBe(0);
  });

  it("is refused in production, like the loopback switch", () => {
    expect(() => buildServices({ ...env, ENVIRONMENT: "production", ALLOW_LOOPBACK_URLS: "false", LOCAL_PAYMENTS: "true" })).toThrow(/misconfigured/);
  });
});

describe("the Stripe provider", () => {
  it("refuses to create a checkout nobody could confirm (no webhook signing secret)", async () => {
    const stripe = new StripePaymentProvider("sk_test_x", null);
    await expect(stripe.createCheckout({ linkId: "tul_x", orgId: "org_x", amountCents: 100, description: "x", successUrl: "https://api.test/top-up/complete", now: nowSeconds() })).rejects.toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
  });

  it("verifies confirmations with the same Stripe scheme", async () => {
    const stripe = new StripePaymentProvider("sk_test_x", WEBHOOK_SECRET);
    const body = completedEvent("cs_test_abc", 700);
    expect(await stripe.verifyConfirmation(body, await stripeSignature(body), nowSeconds())).toMatchObject({ kind: "checkout_paid", checkoutId: "cs_test_abc", amountCents: 700, currency: "usd" });
    await expect(stripe.verifyConfirmation(body, "t=1,v1=00", nowSeconds())).rejects.toThrow(/does not verify/);
  });
});
