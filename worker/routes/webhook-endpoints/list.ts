import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { cursorPagingQuery, listEnvelope, takePage } from "../../lib/lists";
import { openApiErrorResponses } from "../../schemas/common";
import { WebhookEndpointListSchema } from "../../schemas/webhooks";
import { endpointObject, listEndpoints } from "../../services/webhooks";

export const listWebhookEndpointsRoute = createRoute({
  operationId: "listWebhookEndpoints",
  method: "get",
  path: "/v1/webhook_endpoints",
  tags: ["Webhooks"],
  summary: "The organization's webhook endpoints, newest first (secrets are never shown again)",
  security: [{ bearerAuth: [] }],
  request: { query: z.object(cursorPagingQuery(100, 20)) },
  responses: {
    200: { description: "List of webhook endpoints", content: { "application/json": { schema: WebhookEndpointListSchema } } },
    ...openApiErrorResponses,
  },
});

export type ListWebhookEndpointsResponse = z.infer<typeof WebhookEndpointListSchema>;

export function registerListWebhookEndpoints(app: OpenAPIHono<AppEnv>) {
  app.openapi(listWebhookEndpointsRoute, async (c) => {
    const { limit, starting_after } = c.req.valid("query");
    const { rows, totalCount } = await listEndpoints(c.get("services").db, c.get("auth").orgId, { limit, startingAfter: starting_after });
    const page = takePage(rows, limit);
    return c.json(listEnvelope(page.data.map(endpointObject), { hasMore: page.hasMore, totalCount }), 200);
  });
}
