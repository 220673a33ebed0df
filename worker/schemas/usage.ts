import { z } from "@hono/zod-openapi";
import { listSchema } from "../lib/lists";

export const UsageEventSchema = z
  .object({
    id: z.string().openapi({ example: "ue_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("usage_event"),
    session: z.string().openapi({ description: "The session (`sess_…`) the job belongs to" }),
    api_key: z.string().nullable().openapi({ description: "Id (`key_…`) of the API key that submitted it" }),
    status: z.enum(["held", "settled", "voided"]),
    held_cents: z.number().int().openapi({ description: "Cents held: at submit for the estimated length, raised before any work when the runner measures a longer video" }),
    settled_cents: z.number().int().nullable().openapi({ description: "Cents charged for the measured length; null until settled" }),
    estimated_seconds: z.number().int(),
    measured_seconds: z.number().int().nullable(),
    created: z.number().int(),
    settled_at: z.number().int().nullable(),
    voided_at: z.number().int().nullable(),
  })
  .openapi("UsageEvent");

export const UsageEventListSchema = listSchema(UsageEventSchema, "UsageEventList");
