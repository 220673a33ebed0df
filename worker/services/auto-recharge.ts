// Auto-recharge: an organization with a saved card may set a threshold and an
// amount. When a settle leaves its available credit below the threshold, the
// amount is charged off-session and added as a credit grant (source
// `auto_recharge`, one-year expiry), at most once an hour. The hourly slot is
// claimed atomically before charging, so concurrent settles charge once; a
// declined charge keeps the slot, so a failing card is retried hourly rather
// than on every settle.
import { and, eq, isNotNull, isNull, lte, or } from "drizzle-orm";
import { organizations } from "../../drizzle/schema";
import type { Database } from "../env";
import { getBalance, type LedgerOutcome } from "./billing";
import { addCredits, requireOrganization } from "./organizations";
import type { PaymentProvider } from "./payments";

export const AUTO_RECHARGE_INTERVAL_SECONDS = 3600;

export interface AutoRechargeSettings {
  thresholdCents: number;
  amountCents: number;
  paymentCustomerId: string;
  paymentMethodId: string;
}

type OrganizationRow = typeof organizations.$inferSelect;

export function autoRechargeObject(org: OrganizationRow) {
  const enabled = org.autoRechargeThresholdCents !== null && org.autoRechargeAmountCents !== null && org.paymentMethodId !== null;
  return {
    object: "auto_recharge" as const,
    organization: org.id,
    enabled,
    threshold_cents: org.autoRechargeThresholdCents,
    amount_cents: org.autoRechargeAmountCents,
    payment_customer_id: org.paymentCustomerId,
    payment_method_id: org.paymentMethodId,
    last_charged_at: org.lastAutoRechargeAt,
  };
}

/** Sets (or, with null, switches off) an organization's auto-recharge. */
export async function setAutoRecharge(db: Database, orgId: string, settings: AutoRechargeSettings | null) {
  await requireOrganization(db, orgId);
  const [org] = await db
    .update(organizations)
    .set(
      settings
        ? {
            autoRechargeThresholdCents: settings.thresholdCents,
            autoRechargeAmountCents: settings.amountCents,
            paymentCustomerId: settings.paymentCustomerId,
            paymentMethodId: settings.paymentMethodId,
          }
        : { autoRechargeThresholdCents: null, autoRechargeAmountCents: null },
    )
    .where(eq(organizations.id, orgId))
    .returning();
  return autoRechargeObject(org);
}

export type AutoRechargeOutcome =
  | { charged: true; grantId: string; paymentId: string }
  | { charged: false; reason: "not_configured" | "above_threshold" | "too_soon" | "payment_failed"; detail?: string };

/** Charges the organization's auto-recharge amount if it is due (see the module comment). */
export async function maybeAutoRecharge(db: Database, payments: PaymentProvider, orgId: string, now: number): Promise<AutoRechargeOutcome> {
  const org = await requireOrganization(db, orgId);
  const settings = autoRechargeObject(org);
  if (!settings.enabled || !org.paymentCustomerId) return { charged: false, reason: "not_configured" };
  const { available_cents } = await getBalance(db, orgId, now);
  if (available_cents >= org.autoRechargeThresholdCents!) return { charged: false, reason: "above_threshold" };

  const claimed = await db
    .update(organizations)
    .set({ lastAutoRechargeAt: now })
    .where(
      and(
        eq(organizations.id, orgId),
        isNotNull(organizations.autoRechargeThresholdCents),
        or(isNull(organizations.lastAutoRechargeAt), lte(organizations.lastAutoRechargeAt, now - AUTO_RECHARGE_INTERVAL_SECONDS)),
      ),
    )
    .returning({ id: organizations.id });
  if (claimed.length === 0) return { charged: false, reason: "too_soon" };

  const amountCents = org.autoRechargeAmountCents!;
  const result = await payments.chargeOffSession({
    customerId: org.paymentCustomerId,
    paymentMethodId: org.paymentMethodId!,
    amountCents,
    // One charge per organization and claimed slot, even if this call is retried.
    idempotencyKey: `auto_recharge:${orgId}:${now}`,
    description: `Auto-recharge: ${amountCents} cents of video analysis credit`,
    metadata: { organization: orgId, reason: "auto_recharge" },
  });
  if (result.status === "failed") {
    console.error(JSON.stringify({ level: "warn", msg: "auto-recharge charge failed", organization: orgId, reason: result.reason }));
    return { charged: false, reason: "payment_failed", detail: result.reason };
  }
  const grant = await addCredits(db, orgId, { amountCents, source: "auto_recharge", note: `payment ${result.paymentId}` }, now);
  return { charged: true, grantId: grant.id, paymentId: result.paymentId };
}

/**
 * The step after a settle (services/lifecycle.ts runs it): a settle that moved the ledger may have
 * left the balance below the threshold. A payment problem must never undo or fail a settle: it is
 * logged, and the next settle tries again.
 */
export async function rechargeAfterSettle(db: Database, payments: PaymentProvider | null, settled: LedgerOutcome, now: number): Promise<void> {
  if (!settled.changed) return;
  await rechargeIfDue(db, payments, settled.usageEvent.orgId, now);
}

/** The same step for a settle made inside another batch (the job lifecycle's result, services/jobs.ts). */
export async function rechargeIfDue(db: Database, payments: PaymentProvider | null, orgId: string, now: number): Promise<void> {
  if (!payments) return;
  try {
    await maybeAutoRecharge(db, payments, orgId, now);
  } catch (err) {
    console.error(JSON.stringify({ level: "error", msg: "auto-recharge failed", organization: orgId, error: String(err) }));
  }
}
