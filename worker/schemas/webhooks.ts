// OpenAPI components of webhook endpoints. The wire shape is produced in one
// place (services/webhooks.ts `endpointObject`); these schemas describe it.
import { z } from "@hono/zod-openapi";
import { listSchema } from "../lib/lists";

export const WebhookEndpointSchema = z
  .object({
    id: z.string().openapi({ example: "we_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("webhook_endpoint"),
    url: z.string().openapi({ example: "https://example.com/hooks/hoops" }),
    description: z.string().nullable(),
    status: z.enum(["enabled", "disabled"]).openapi({
      description: "`disabled` endpoints receive nothing; an endpoint is disabled after 7 straight days of failed deliveries and must be re-created",
    }),
    disabled_reason: z.string().nullable().openapi({ description: "Why the endpoint was disabled; null while enabled" }),
    created: z.number().int(),
  })
  .openapi("WebhookEndpoint");

export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({
    description: "Signing secret (`hws_prod_…` or `hws_stg_…`). Returned only in this response; store it now.",
    example: "hws_stg_Zk3d9QmW1xY7bV2nT5rL8pC4hJ6gF0aS",
  }),
}).openapi("CreatedWebhookEndpoint");

export const WebhookEndpointListSchema = listSchema(WebhookEndpointSchema, "WebhookEndpointList");

export const CreateWebhookEndpointBodySchema = z
  .object({
    url: z.string().min(1).max(2048).openapi({ description: "Public `https://` URL without credentials, resolving to public addresses only" }),
    description: z.string().max(500).optional(),
  })
  .openapi("CreateWebhookEndpointRequest");

export const DeletedWebhookEndpointSchema = z
  .object({ id: z.string(), object: z.literal("webhook_endpoint"), deleted: z.literal(true) })
  .openapi("DeletedWebhookEndpoint");

export const WebhookTestSchema = z
  .object({
    object: z.literal("webhook_test"),
    event: z.string().openapi({ description: "The `evt_` id of the synthetic `webhook_endpoint.test` event that was sent" }),
    delivered: z.boolean().openapi({ description: "True when the endpoint answered 2xx within 10 seconds" }),
    status_code: z.number().int().nullable().openapi({ description: "The endpoint's HTTP status; null when no answer came back" }),
    latency_ms: z.number().int().nullable().openapi({ description: "Time to the answer or the failure; null when no request was sent" }),
    error: z.string().nullable().openapi({ description: "Why the delivery failed; null when delivered" }),
  })
  .openapi("WebhookTest");
