// POST /payments/webhook: the payment provider's signed confirmations — Stripe's webhook
// endpoint in production (subscribe it to `checkout.session.completed` and
// `checkout.session.async_payment_succeeded`), the local stand-in's in development. Outside /v1
// and the OpenAPI documents: the signature is the credential. Any verified event is acknowledged
// with 200 (so the provider stops retrying), whether or not it granted anything; a signature
// that does not verify is a 400 and nothing is read.
import type { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { CONFIRMATION_SIGNATURE_HEADER, PAYMENT_WEBHOOK_PATH, paymentProviderFrom } from "../../services/payments";
import { confirmTopUp } from "../../services/top-up-links";

export function registerPaymentWebhook(app: Hono<AppEnv>) {
  app.post(PAYMENT_WEBHOOK_PATH, async (c) => {
    const { db, env, now } = c.get("services");
    // The raw bytes are what was signed: read them before anything is parsed.
    const rawBody = await c.req.text();
    const payments = paymentProviderFrom(env);
    if (!payments) throw new ApiError("service_misconfigured", "Card payments are not configured on this deployment: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.");
    const confirmation = await payments.verifyConfirmation(rawBody, c.req.header(CONFIRMATION_SIGNATURE_HEADER) ?? null, now());
    const outcome = await confirmTopUp(db, confirmation, now());
    return c.json(
      {
        received: true,
        event: confirmation.eventId,
        granted: outcome.granted,
        ...(outcome.granted ? { credit_grant: outcome.creditGrant } : { reason: outcome.reason }),
        ...(outcome.link ? { top_up_link: outcome.link } : {}),
      },
      200,
    );
  });
}
