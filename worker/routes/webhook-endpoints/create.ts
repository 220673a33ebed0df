import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { dnsUnavailableResponse, errorResponse, openApiErrorResponses } from "../../schemas/common";
import { CreatedWebhookEndpointSchema, CreateWebhookEndpointBodySchema } from "../../schemas/webhooks";
import { durableIdempotencyStore, IDEMPOTENCY_KEY_MAX, parseIdempotencyKey, requestFingerprint, runIdempotent } from "../../services/idempotency";
import { createEndpoint, freshEndpointIds, type EndpointIds } from "../../services/webhooks";

export const createWebhookEndpointRoute = createRoute({
  operationId: "createWebhookEndpoint",
  method: "post",
  path: "/v1/webhook_endpoints",
  tags: ["Webhooks"],
  summary: "Register a webhook endpoint; the answer carries its signing secret, shown only here",
  security: [{ bearerAuth: [] }],
  request: {
    headers: z.object({
      "idempotency-key": z
        .string()
        .optional()
        .openapi({ description: `\`Idempotency-Key\`: at most ${IDEMPOTENCY_KEY_MAX} characters; the response (secret included) is replayed for 24 hours` }),
    }),
    body: { required: true, content: { "application/json": { schema: CreateWebhookEndpointBodySchema } } },
  },
  responses: {
    200: {
      description: "The endpoint, with its `secret`",
      content: { "application/json": { schema: CreatedWebhookEndpointSchema } },
    },
    ...openApiErrorResponses,
    409: errorResponse("`idempotency_key_in_progress` (retry shortly)"),
    ...dnsUnavailableResponse,
  },
});

export type CreateWebhookEndpointResponse = z.infer<typeof CreatedWebhookEndpointSchema>;

export function registerCreateWebhookEndpoint(app: OpenAPIHono<AppEnv>) {
  app.openapi(createWebhookEndpointRoute, async (c) => {
    const services = c.get("services");
    const { orgId } = c.get("auth");
    const key = parseIdempotencyKey(c.req.header("Idempotency-Key"));
    const input = c.req.valid("json");
    const result = await runIdempotent<EndpointIds & Record<string, string>>(
      key === undefined ? null : durableIdempotencyStore(services.env, orgId, key),
      await requestFingerprint("POST", "/v1/webhook_endpoints", input),
      { ...freshEndpointIds(services.environment) },
      async (ids) => ({
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(await createEndpoint(services, orgId, input, ids)),
      }),
    );
    const headers = new Headers(result.headers);
    if (result.replayed) headers.set("Idempotent-Replayed", "true");
    return new Response(result.body, { status: result.status, headers }) as never;
  });
}
