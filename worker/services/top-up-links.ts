// Card top-up links: the operator creates a link for an organization and an amount; the payer
// pays it on the provider's hosted page; the provider's signed confirmation grants the amount as
// one `card_top_up` credit grant. Exactly once: the grant carries the provider's payment id
// (the checkout `cs_…`) under a unique index, so a replayed, duplicated or concurrent
// confirmation inserts nothing; the link flips to `paid` in the same D1 batch.
import { and, eq, sql } from "drizzle-orm";
import { creditGrants, topUpLinks } from "../../drizzle/schema";
import type { Database } from "../env";
import { notFound } from "../errors";
import { newId } from "../ids";
import { creditGrantRow, requireOrganization } from "./organizations";
import type { PaymentConfirmation, PaymentProvider } from "./payments";

/** Where the payer lands after paying (routes/payments/top-up-complete.ts). */
export const TOP_UP_COMPLETE_PATH = "/top-up/complete";

type TopUpLinkRow = typeof topUpLinks.$inferSelect;

export function topUpLinkObject(row: TopUpLinkRow, now: number) {
  return {
    id: row.id,
    object: "top_up_link" as const,
    organization: row.orgId,
    amount_cents: row.amountCents,
    currency: "usd" as const,
    url: row.url,
    status: row.status === "paid" ? ("paid" as const) : now >= row.expiresAt ? ("expired" as const) : ("open" as const),
    expires_at: row.expiresAt,
    created: row.created,
    paid_at: row.paidAt,
    credit_grant: row.creditGrantId,
  };
}

/** Creates the provider's checkout for `amountCents`, then records the link. */
export async function createTopUpLink(db: Database, payments: PaymentProvider, link: { orgId: string; amountCents: number; baseUrl: string }, now: number) {
  await requireOrganization(db, link.orgId);
  const id = newId("tul");
  const checkout = await payments.createCheckout({
    linkId: id,
    orgId: link.orgId,
    amountCents: link.amountCents,
    description: "Video analysis credit",
    successUrl: `${link.baseUrl}${TOP_UP_COMPLETE_PATH}`,
    now,
  });
  const [row] = await db
    .insert(topUpLinks)
    .values({ id, orgId: link.orgId, amountCents: link.amountCents, provider: payments.name, checkoutId: checkout.checkoutId, url: checkout.url, created: now, expiresAt: checkout.expiresAt })
    .returning();
  return topUpLinkObject(row, now);
}

export async function getTopUpLink(db: Database, id: string, now: number) {
  const row = await db.select().from(topUpLinks).where(eq(topUpLinks.id, id)).get();
  if (!row) throw notFound("top-up link", id);
  return topUpLinkObject(row, now);
}

export async function findTopUpLinkByCheckout(db: Database, checkoutId: string): Promise<TopUpLinkRow | undefined> {
  return db.select().from(topUpLinks).where(eq(topUpLinks.checkoutId, checkoutId)).get();
}

export type ConfirmationOutcome =
  | { granted: true; link: string; creditGrant: string }
  | { granted: false; reason: "not_a_payment" | "unknown_link" | "already_granted" | "paid_after_expiry" | "amount_mismatch"; link?: string };

/**
 * Grants a verified confirmation's payment, at most once (see the module comment). A payment the
 * link cannot take — unknown checkout, paid after the link expired, a different amount — grants
 * nothing and is logged for the operator to refund.
 */
export async function confirmTopUp(db: Database, confirmation: PaymentConfirmation, now: number): Promise<ConfirmationOutcome> {
  if (confirmation.kind !== "checkout_paid") return { granted: false, reason: "not_a_payment" };
  const link = await findTopUpLinkByCheckout(db, confirmation.checkoutId);
  if (!link) return { granted: false, reason: "unknown_link" };
  if (link.status === "paid") return { granted: false, reason: "already_granted", link: link.id };
  const refusal =
    confirmation.paidAt > link.expiresAt ? "paid_after_expiry" : confirmation.amountCents !== link.amountCents || confirmation.currency !== "usd" ? "amount_mismatch" : null;
  if (refusal) {
    console.error(JSON.stringify({ level: "error", msg: "top-up payment not granted; refund it", reason: refusal, link: link.id, checkout: confirmation.checkoutId, event: confirmation.eventId }));
    return { granted: false, reason: refusal, link: link.id };
  }

  // Credits expire one year after purchase: the payment's time.
  const grant = creditGrantRow(link.orgId, { amountCents: link.amountCents, source: "card_top_up", note: `top-up link ${link.id}`, paymentId: confirmation.checkoutId }, confirmation.paidAt);
  const [inserted] = await db.batch([
    db.insert(creditGrants).values({ ...grant, created: now }).onConflictDoNothing({ target: creditGrants.paymentId }).returning({ id: creditGrants.id }),
    // The grant that holds the payment, whichever confirmation inserted it.
    db
      .update(topUpLinks)
      .set({ status: "paid", paidAt: confirmation.paidAt, creditGrantId: sql`(SELECT ${creditGrants.id} FROM ${creditGrants} WHERE ${creditGrants.paymentId} = ${confirmation.checkoutId})` })
      .where(and(eq(topUpLinks.id, link.id), eq(topUpLinks.status, "open"))),
  ]);
  if (inserted.length === 0) return { granted: false, reason: "already_granted", link: link.id };
  return { granted: true, link: link.id, creditGrant: grant.id };
}
