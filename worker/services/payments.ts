// Card payments behind a small interface: production uses Stripe (off-session
// PaymentIntents for auto-recharge, Checkout Sessions for top-up links, signed
// webhook events as confirmations); local development and tests use
// LocalPaymentProvider, a stand-in that speaks Stripe's event format and
// signature scheme, so the confirmation path is the same code for both.
import type Stripe from "stripe";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { randomToken } from "../ids";
import { runtimeFetch } from "./http-client";
import { signatureHeader } from "./webhooks";

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

/** A hosted payment page for a fixed amount (a card top-up link). */
export interface CheckoutRequest {
  /** Our id for the link; the provider echoes it on the checkout (`client_reference_id`). */
  linkId: string;
  orgId: string;
  amountCents: number;
  description: string;
  /** Where the payer lands after paying. */
  successUrl: string;
  /** Unix seconds. */
  now: number;
}

export interface Checkout {
  /** The provider's checkout id (`cs_…`); its confirmations name it. */
  checkoutId: string;
  /** The page the payer opens. */
  url: string;
  /** Unix seconds; after it the page takes no payment. */
  expiresAt: number;
}

/** What a verified confirmation (a signed provider event) says. */
export type PaymentConfirmation =
  | { kind: "checkout_paid"; eventId: string; checkoutId: string; amountCents: number; currency: string; paidAt: number }
  | { kind: "other"; eventId: string; type: string };

/** The header a confirmation's signature comes in (Stripe's name; the local stand-in uses it too). */
export const CONFIRMATION_SIGNATURE_HEADER = "Stripe-Signature";
/** How old a confirmation's signature timestamp may be (Stripe's default tolerance). */
export const CONFIRMATION_TOLERANCE_SECONDS = 300;
/**
 * How long a top-up link takes payment: 24 hours, Stripe Checkout's default and maximum session
 * lifetime (Stripe's link carries Stripe's own `expires_at`; the local stand-in uses this).
 */
export const TOP_UP_LINK_LIFETIME_SECONDS = 24 * 3600;

export interface PaymentProvider {
  readonly name: "stripe" | "local";
  chargeOffSession(charge: OffSessionCharge): Promise<ChargeResult>;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /**
   * Checks a confirmation's signature over the raw body, then reads it. A missing, malformed,
   * wrong or stale signature throws 400 `signature_verification_failed`.
   */
  verifyConfirmation(rawBody: string, signature: string | null, now: number): Promise<PaymentConfirmation>;
}

/** The Stripe SDK, loaded on first use: it is large and only payments need it. */
async function loadStripe(): Promise<typeof Stripe> {
  return (await import("stripe")).default;
}

function requireWebhookSecret(secret: string | undefined | null): string {
  if (!secret) {
    throw new ApiError("service_misconfigured", "Card top-ups are disabled: set the STRIPE_WEBHOOK_SECRET secret (the signing secret of the payment webhook).");
  }
  return secret;
}

/**
 * Verifies a Stripe-signed event with Stripe's own helper (SubtleCrypto, so it runs in workerd)
 * and reads the part a top-up needs: a paid Checkout Session. `checkout.session.completed` with
 * `payment_status: paid` (cards), or `checkout.session.async_payment_succeeded` (delayed methods).
 */
async function verifyStripeEvent(rawBody: string, signature: string | null, secret: string, now: number): Promise<PaymentConfirmation> {
  const StripeSdk = await loadStripe();
  let event: Stripe.Event;
  try {
    event = await StripeSdk.webhooks.constructEventAsync(
      rawBody,
      signature ?? "",
      secret,
      CONFIRMATION_TOLERANCE_SECONDS,
      StripeSdk.createSubtleCryptoProvider(),
      now * 1000,
    );
  } catch (err) {
    throw new ApiError("signature_verification_failed", `The ${CONFIRMATION_SIGNATURE_HEADER} signature does not verify: ${(err as Error).message}`, {
      param: CONFIRMATION_SIGNATURE_HEADER,
    });
  }
  const paid =
    (event.type === "checkout.session.completed" && event.data.object.payment_status === "paid") ||
    event.type === "checkout.session.async_payment_succeeded";
  if (!paid) return { kind: "other", eventId: event.id, type: event.type };
  const session = event.data.object as Stripe.Checkout.Session;
  return {
    kind: "checkout_paid",
    eventId: event.id,
    checkoutId: session.id,
    amountCents: session.amount_total ?? 0,
    currency: session.currency ?? "",
    paidAt: event.created,
  };
}

/** Stripe: a confirmed, off-session PaymentIntent on the saved customer and payment method (USD). */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = "stripe";

  constructor(
    private readonly secretKey: string,
    /** The signing secret of the webhook endpoint Stripe sends confirmations to (`whsec_…`). */
    private readonly webhookSecret: string | null = null,
  ) {}

  private async client() {
    const StripeSdk = await loadStripe();
    // The runtime's fetch through our one wrapper (see http-client.ts), with a timeout per request.
    return new StripeSdk(this.secretKey, { httpClient: StripeSdk.createFetchHttpClient(runtimeFetch), maxNetworkRetries: 2, timeout: STRIPE_TIMEOUT_MS });
  }

  /** A Checkout Session in payment mode; Stripe's default lifetime (24 h) is the link's. */
  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    // A link nobody could confirm would take money and grant nothing: refuse it up front.
    requireWebhookSecret(this.webhookSecret);
    const stripe = await this.client();
    const metadata = { top_up_link: request.linkId, organization: request.orgId };
    const session = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: request.amountCents, product_data: { name: request.description } } }],
        client_reference_id: request.linkId,
        metadata,
        payment_intent_data: { description: request.description, metadata },
        success_url: request.successUrl,
      },
      { idempotencyKey: `top_up_link:${request.linkId}` },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { checkoutId: session.id, url: session.url, expiresAt: session.expires_at };
  }

  verifyConfirmation(rawBody: string, signature: string | null, now: number): Promise<PaymentConfirmation> {
    return verifyStripeEvent(rawBody, signature, requireWebhookSecret(this.webhookSecret), now);
  }

  async chargeOffSession(charge: OffSessionCharge): Promise<ChargeResult> {
    const Stripe = await loadStripe();
    const stripe = await this.client();
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

/** Stripe's test payment method that declines, honoured by the stand-in too. */
export const LOCAL_DECLINING_PAYMENT_METHOD = "pm_card_chargeDeclined";

/**
 * The local stand-in for Stripe (LOCAL_PAYMENTS=true; development and tests only, refused in
 * production by buildServices). A checkout is a page of this Worker,
 * `/local-checkout/{checkout id}`; paying it there makes the stand-in send the Worker a
 * `checkout.session.completed` event shaped and signed as Stripe's (`signedCompletion`), which
 * the Worker verifies with Stripe's own helper, exactly as in production. Off-session charges
 * succeed, except on LOCAL_DECLINING_PAYMENT_METHOD.
 */
export class LocalPaymentProvider implements PaymentProvider {
  readonly name = "local";

  constructor(
    /** The base URL its checkout pages are served from (this Worker). */
    private readonly baseUrl: string,
    private readonly webhookSecret: string | undefined,
  ) {}

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    requireWebhookSecret(this.webhookSecret);
    const checkoutId = `cs_local_${randomToken(24)}`;
    return { checkoutId, url: `${this.baseUrl}${LOCAL_CHECKOUT_PATH}/${checkoutId}`, expiresAt: request.now + TOP_UP_LINK_LIFETIME_SECONDS };
  }

  verifyConfirmation(rawBody: string, signature: string | null, now: number): Promise<PaymentConfirmation> {
    return verifyStripeEvent(rawBody, signature, requireWebhookSecret(this.webhookSecret), now);
  }

  /** The confirmation Stripe would send once the checkout is paid: the raw body and its signature header. */
  async signedCompletion(checkout: { checkoutId: string; linkId: string; orgId: string; amountCents: number }, now: number) {
    const body = JSON.stringify({
      id: `evt_local_${randomToken(24)}`,
      object: "event",
      type: "checkout.session.completed",
      created: now,
      livemode: false,
      data: {
        object: {
          id: checkout.checkoutId,
          object: "checkout.session",
          mode: "payment",
          status: "complete",
          payment_status: "paid",
          amount_total: checkout.amountCents,
          currency: "usd",
          client_reference_id: checkout.linkId,
          metadata: { top_up_link: checkout.linkId, organization: checkout.orgId },
          payment_intent: `pi_local_${randomToken(24)}`,
        },
      },
    });
    // Stripe's scheme is the one our own webhooks use (services/webhooks.ts): one signer.
    return { body, signature: await signatureHeader(requireWebhookSecret(this.webhookSecret), now, body) };
  }

  async chargeOffSession(charge: OffSessionCharge): Promise<ChargeResult> {
    return charge.paymentMethodId === LOCAL_DECLINING_PAYMENT_METHOD
      ? { status: "failed", paymentId: null, reason: "card_declined: Your card was declined." }
      : { status: "succeeded", paymentId: `pi_local_${randomToken(24)}` };
  }
}

/** Where the local stand-in's checkout pages live (routes/payments/local-checkout.ts). */
export const LOCAL_CHECKOUT_PATH = "/local-checkout";
/** Where payment confirmations arrive (Stripe's webhook endpoint; routes/payments/webhook.ts). */
export const PAYMENT_WEBHOOK_PATH = "/payments/webhook";

/**
 * Stripe when `STRIPE_SECRET_KEY` is set; the local stand-in when LOCAL_PAYMENTS is "true"
 * (its pages served from `baseUrl`); otherwise null (no auto-recharge, no top-up links).
 */
export function paymentProviderFrom(env: Env, baseUrl?: string): PaymentProvider | null {
  if (env.STRIPE_SECRET_KEY) return new StripePaymentProvider(env.STRIPE_SECRET_KEY, env.STRIPE_WEBHOOK_SECRET ?? null);
  if (env.LOCAL_PAYMENTS === "true") return new LocalPaymentProvider(baseUrl ?? env.PUBLIC_BASE_URL ?? "", env.STRIPE_WEBHOOK_SECRET);
  return null;
}
