import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { openApiErrorResponses } from "../../schemas/common";
import { CreatedWebhookEndpointSchema, CreateWebhookEndpointBodySchema } from "../../schemas/webhooks";
import { createEndpoint } from "../../services/webhooks";

export const createWebhookEndpointRoute = createRoute({
  operationId: "createWebhookEndpoint",
  method: "post",
  path: "/v1/webhook_endpoints",
  tags: ["Webhooks"],
  summary: "Register a webhook endpoint; the answer carries its signing secret, shown only here",
  security: [{ bearerAuth: [] }],
  request: { body: { required: true, content: { "application/json": { schema: CreateWebhookEndpointBodySchema } } } },
  responses: {
    200: { description: "The endpoint, with its `secret`", content: { "application/json": { schema: CreatedWebhookEndpointSchema } } },
    ...openApiErrorResponses,
  },
});

export type CreateWebhookEndpointResponse = z.infer<typeof CreatedWebhookEndpointSchema>;

export function registerCreateWebhookEndpoint(app: OpenAPIHono<AppEnv>) {
  app.openapi(createWebhookEndpointRoute, async (c) => {
    return c.json(await createEndpoint(c.get("services"), c.get("auth").orgId, c.req.valid("json")), 200);
  });
}
