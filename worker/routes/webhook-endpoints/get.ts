import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { WebhookEndpointSchema } from "../../schemas/webhooks";
import { endpointObject, getEndpoint } from "../../services/webhooks";

export const getWebhookEndpointRoute = createRoute({
  operationId: "getWebhookEndpoint",
  method: "get",
  path: "/v1/webhook_endpoints/{id}",
  tags: ["Webhooks"],
  summary: "One webhook endpoint (its secret is never shown again)",
  security: [{ bearerAuth: [] }],
  request: { params: IdPathParam("we") },
  responses: {
    200: { description: "The endpoint", content: { "application/json": { schema: WebhookEndpointSchema } } },
    ...openApiErrorResponses,
  },
});

export type GetWebhookEndpointResponse = z.infer<typeof WebhookEndpointSchema>;

export function registerGetWebhookEndpoint(app: OpenAPIHono<AppEnv>) {
  app.openapi(getWebhookEndpointRoute, async (c) => {
    const row = await getEndpoint(c.get("services").db, c.get("auth").orgId, c.req.valid("param").id);
    return c.json(endpointObject(row), 200);
  });
}
