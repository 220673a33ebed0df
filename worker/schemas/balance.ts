import { z } from "@hono/zod-openapi";

export const BalanceSchema = z
  .object({
    object: z.literal("balance"),
    credit_cents: z.number().int().openapi({ description: "Unexpired credit held by the organization, in cents" }),
    held_cents: z.number().int().openapi({ description: "Credit reserved by jobs in flight" }),
    available_cents: z.number().int().openapi({ description: "credit_cents − held_cents; what a new submit is checked against" }),
    rate_cents_per_hour: z.number().int().openapi({ example: 500 }),
    soonest_expiry: z.number().int().nullable().openapi({ description: "Unix seconds of the next expiry that shrinks the balance, or null" }),
  })
  .openapi("Balance");
