import { z } from "@hono/zod-openapi";

export const OrganizationSchema = z
  .object({ id: z.string(), object: z.literal("organization"), name: z.string(), default_group: z.string(), created: z.number().int() })
  .openapi("Organization");

export const GroupSchema = z
  .object({ id: z.string(), object: z.literal("group"), organization: z.string(), name: z.string(), is_default: z.boolean(), created: z.number().int() })
  .openapi("Group");

export const CreatedApiKeySchema = z
  .object({
    id: z.string(),
    object: z.literal("api_key"),
    organization: z.string(),
    name: z.string().nullable(),
    environment: z.enum(["prod", "stg"]),
    prefix: z.string(),
    key: z.string().openapi({ description: "The plaintext key. Shown once; only its hash is stored." }),
    created: z.number().int(),
  })
  .openapi("CreatedApiKey");

export const RevokedSchema = z
  .object({ id: z.string(), object: z.string(), revoked: z.literal(true) })
  .passthrough()
  .openapi("Revoked");

export const CreditGrantSchema = z
  .object({
    id: z.string(),
    object: z.literal("credit_grant"),
    organization: z.string(),
    amount_cents: z.number().int(),
    remaining_cents: z.number().int(),
    source: z.string(),
    expires_at: z.number().int(),
    created: z.number().int(),
  })
  .openapi("CreditGrant");

export const CreatedRunnerTokenSchema = z
  .object({
    id: z.string(),
    object: z.literal("runner_token"),
    name: z.string().nullable(),
    prefix: z.string(),
    token: z.string().openapi({ description: "The plaintext runner token. Shown once." }),
    created: z.number().int(),
  })
  .openapi("CreatedRunnerToken");
