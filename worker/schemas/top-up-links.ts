import { z } from "@hono/zod-openapi";

/** One dollar: the smallest top-up worth a card fee (auto-recharge has the same floor). */
export const TOP_UP_MIN_CENTS = 100;
/** Stripe's largest USD charge ($999,999.99). */
export const TOP_UP_MAX_CENTS = 99_999_999;

export const TopUpLinkCreateSchema = z
  .object({
    amount_cents: z
      .number()
      .int()
      .min(TOP_UP_MIN_CENTS)
      .max(TOP_UP_MAX_CENTS)
      .openapi({ description: `Credit the payment adds, in US cents (${TOP_UP_MIN_CENTS} to ${TOP_UP_MAX_CENTS}); the card is charged the same amount in USD`, example: 5000 }),
  })
  .strict()
  .openapi("TopUpLinkCreate");

export const TopUpLinkSchema = z
  .object({
    id: z.string().openapi({ example: "tul_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("top_up_link"),
    organization: z.string(),
    amount_cents: z.number().int(),
    currency: z.literal("usd"),
    url: z.string().openapi({ description: "The payment page to send the payer (Stripe Checkout; the local stand-in in development)" }),
    status: z.enum(["open", "paid", "expired"]).openapi({ description: "`open` until paid or `expires_at`; `paid` once the provider's signed confirmation granted the credit" }),
    expires_at: z.number().int().openapi({ description: "Unix seconds; 24 hours after creation (Stripe Checkout's session lifetime)" }),
    created: z.number().int(),
    paid_at: z.number().int().nullable(),
    credit_grant: z.string().nullable().openapi({ description: "The `card_top_up` credit grant (`cg_…`) the payment added, once paid" }),
  })
  .openapi("TopUpLink");
