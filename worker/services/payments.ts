// Card payments behind a small interface: production charges saved cards
// through Stripe (off-session PaymentIntents); tests use a local provider.
import type { Env } from "../env";
import { runtimeFetch } from "./http-client";

/** Stripe calls are outbound requests like any other: bounded (docs/runner.md, "Outbound limits"). */
export const STRIPE_TIMEOUT_MS = 30_000;

export interface OffSessionCharge {
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  /** Same key ⇒ the provider charges at most once (a retried call does not double-charge). */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

export type ChargeResult = { status: "succeeded"; paymentId: string } | { status: "failed"; paymentId: string | null; reason: string };

export interface PaymentProvider {
  chargeOffSession(charge: OffSessionCharge): Promise<ChargeResult>;
}

/** Stripe: a confirmed, off-session PaymentIntent on the saved customer and payment method (USD). */
export class StripePaymentProvider implements PaymentProvider {
  constructor(private readonly secretKey: string) {}

  async chargeOffSession(charge: OffSessionCharge): Promise<ChargeResult> {
    // Loaded on first use: the SDK is large and only settles that recharge need it.
    const { default: Stripe } = await import("stripe");
    // The runtime's fetch through our one wrapper (see http-client.ts), with a timeout per request.
    const stripe = new Stripe(this.secretKey, { httpClient: Stripe.createFetchHttpClient(runtimeFetch), maxNetworkRetries: 2, timeout: STRIPE_TIMEOUT_MS });
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: charge.amountCents,
          currency: "usd",
          customer: charge.customerId,
          payment_method: charge.paymentMethodId,
          off_session: true,
          confirm: true,
          description: charge.description,
          metadata: charge.metadata,
        },
        { idempotencyKey: charge.idempotencyKey },
      );
      return intent.status === "succeeded"
        ? { status: "succeeded", paymentId: intent.id }
        : { status: "failed", paymentId: intent.id, reason: `payment intent is ${intent.status}` };
    } catch (err) {
      // Card declines and `authentication_required` arrive as errors; both mean no money moved.
      if (err instanceof Stripe.errors.StripeCardError || err instanceof Stripe.errors.StripeInvalidRequestError) {
        return { status: "failed", paymentId: err.payment_intent?.id ?? null, reason: `${err.code ?? err.type}: ${err.message}` };
      }
      throw err;
    }
  }
}

/** The production provider when `STRIPE_SECRET_KEY` is set; null (auto-recharge off) otherwise. */
export function paymentProviderFrom(env: Env): PaymentProvider | null {
  return env.STRIPE_SECRET_KEY ? new StripePaymentProvider(env.STRIPE_SECRET_KEY) : null;
}
