import { z } from "@hono/zod-openapi";

export const AutoRechargeUpdateSchema = z
  .discriminatedUnion("enabled", [
    z
      .object({
        enabled: z.literal(true),
        threshold_cents: z.number().int().min(0).max(100_000_000).openapi({ description: "Recharge when available credit falls below this" }),
        amount_cents: z.number().int().min(100).max(100_000_000).openapi({ description: "Charged and credited each time" }),
        payment_customer_id: z.string().regex(/^cus_[A-Za-z0-9]+$/, "a Stripe customer id (cus_…)"),
        payment_method_id: z.string().regex(/^(pm|card|src)_[A-Za-z0-9]+$/, "a saved Stripe payment method id (pm_…)"),
      })
      .strict(),
    z.object({ enabled: z.literal(false) }).strict(),
  ])
  .openapi("AutoRechargeUpdate");

export const AutoRechargeSchema = z
  .object({
    object: z.literal("auto_recharge"),
    organization: z.string(),
    enabled: z.boolean(),
    threshold_cents: z.number().int().nullable(),
    amount_cents: z.number().int().nullable(),
    payment_customer_id: z.string().nullable(),
    payment_method_id: z.string().nullable(),
    last_charged_at: z.number().int().nullable(),
  })
  .openapi("AutoRecharge");
