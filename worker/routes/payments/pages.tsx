/** @jsxImportSource hono/jsx */
// The pages a payer sees around a top-up link: the page Stripe Checkout sends them back to, and
// the local stand-in's checkout page (development only: LOCAL_PAYMENTS=true). Paying the
// stand-in's page makes it send the Worker the signed confirmation Stripe would send, through
// the Worker's own fetch handler (no network), so the webhook route verifies it as in production.
import { exports } from "cloudflare:workers";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { MessagePage, Page } from "../../hub/layout";
import { publicBaseUrl } from "../../services/media-urls";
import { CONFIRMATION_SIGNATURE_HEADER, LOCAL_CHECKOUT_PATH, LocalPaymentProvider, PAYMENT_WEBHOOK_PATH, paymentProviderFrom } from "../../services/payments";
import { findTopUpLinkByCheckout, TOP_UP_COMPLETE_PATH } from "../../services/top-up-links";

const PAID_LINES = ["The credit is added as soon as the payment provider confirms the payment, usually within seconds.", "You can close this page."];

function wantsHtml(c: Context<AppEnv>): boolean {
  return (c.req.header("Accept") ?? "").includes("text/html");
}

function pageHeaders(c: Context<AppEnv>) {
  c.header("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Robots-Tag", "noindex, nofollow");
  c.header("Cache-Control", "no-store");
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The open checkout behind `checkoutId` of the local stand-in, or the error a payer gets. */
async function localCheckout(c: Context<AppEnv>, checkoutId: string) {
  const { db, env, now } = c.get("services");
  const payments = paymentProviderFrom(env, publicBaseUrl(env, c.req.url));
  const link = payments instanceof LocalPaymentProvider ? await findTopUpLinkByCheckout(db, checkoutId) : undefined;
  if (!payments || !link || link.provider !== "local") throw new ApiError("resource_missing", `No such checkout: '${checkoutId}'.`, { param: "id" });
  return { payments, link, expired: link.status !== "paid" && now() >= link.expiresAt, now: now() };
}

export function registerPaymentPages(app: Hono<AppEnv>) {
  app.get(TOP_UP_COMPLETE_PATH, (c) => {
    pageHeaders(c);
    return c.html(<MessagePage title="Payment received" heading="Payment received" lines={PAID_LINES} />);
  });

  app.get(`${LOCAL_CHECKOUT_PATH}/:id`, async (c) => {
    const { link, expired } = await localCheckout(c, c.req.param("id"));
    pageHeaders(c);
    const heading = link.status === "paid" ? "Already paid" : expired ? "This checkout has expired" : `Pay ${dollars(link.amountCents)}`;
    return c.html(
      <Page title={heading}>
        <main id="main" class="message">
          <h1>{heading}</h1>
          <p>Local stand-in for Stripe Checkout: no card is charged. Video analysis credit for {link.orgId}.</p>
          {link.status === "open" && !expired ? (
            <form method="post">
              <button type="submit">Pay {dollars(link.amountCents)}</button>
            </form>
          ) : null}
        </main>
      </Page>,
    );
  });

  // "Paying": the confirmation Stripe would send, signed as Stripe signs it, to the Worker's own webhook.
  app.post(`${LOCAL_CHECKOUT_PATH}/:id`, async (c) => {
    const { payments, link, expired, now } = await localCheckout(c, c.req.param("id"));
    if (expired) throw new ApiError("checkout_expired", `This checkout expired at ${new Date(link.expiresAt * 1000).toISOString()}; nothing was charged. Ask for a new top-up link.`);
    let confirmation: { status: number; body: unknown } | null = null;
    if (link.status === "open") {
      const signed = await (payments as LocalPaymentProvider).signedCompletion({ checkoutId: link.checkoutId, linkId: link.id, orgId: link.orgId, amountCents: link.amountCents }, now);
      const self = (exports as unknown as { default: Fetcher }).default;
      const res = await self.fetch(
        new Request(new URL(PAYMENT_WEBHOOK_PATH, c.req.url), {
          method: "POST",
          headers: { "Content-Type": "application/json", [CONFIRMATION_SIGNATURE_HEADER]: signed.signature },
          body: signed.body,
        }),
      );
      confirmation = { status: res.status, body: await res.json() };
    }
    if (wantsHtml(c)) return c.redirect(TOP_UP_COMPLETE_PATH, 303);
    return c.json({ object: "local_checkout_payment", checkout: link.checkoutId, top_up_link: link.id, paid: true, already_paid: confirmation === null, confirmation }, 200);
  });
}
