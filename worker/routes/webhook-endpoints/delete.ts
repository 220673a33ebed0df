import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { DeletedWebhookEndpointSchema } from "../../schemas/webhooks";
import { deleteEndpoint } from "../../services/webhooks";

export const deleteWebhookEndpointRoute = createRoute({
  operationId: "deleteWebhookEndpoint",
  method: "delete",
  path: "/v1/webhook_endpoints/{id}",
  tags: ["Webhooks"],
  summary: "Delete a webhook endpoint; pending retries to it stop",
  security: [{ bearerAuth: [] }],
  request: { params: IdPathParam("we") },
  responses: {
    200: { description: "Deleted", content: { "application/json": { schema: DeletedWebhookEndpointSchema } } },
    ...openApiErrorResponses,
  },
});

export type DeleteWebhookEndpointResponse = z.infer<typeof DeletedWebhookEndpointSchema>;

export function registerDeleteWebhookEndpoint(app: OpenAPIHono<AppEnv>) {
  app.openapi(deleteWebhookEndpointRoute, async (c) => {
    const { db, now } = c.get("services");
    return c.json(await deleteEndpoint(db, c.get("auth").orgId, c.req.valid("param").id, now()), 200);
  });
}
