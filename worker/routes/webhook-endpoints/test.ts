import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { newId } from "../../ids";
import { IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { WebhookTestSchema } from "../../schemas/webhooks";
import { endpointObject, getEndpoint, recordAttempt, sendToEndpoint, TEST_EVENT_TYPE } from "../../services/webhooks";

export const testWebhookEndpointRoute = createRoute({
  operationId: "testWebhookEndpoint",
  method: "post",
  path: "/v1/webhook_endpoints/{id}/test",
  tags: ["Webhooks"],
  summary: "Send a synthetic `webhook_endpoint.test` event now and report the outcome",
  description:
    "The event is signed like every delivery; its `data.object` is the webhook endpoint itself. It is sent once (no retries), is not listed by GET /v1/events, and does not count towards disabling the endpoint. No request body.",
  security: [{ bearerAuth: [] }],
  request: { params: IdPathParam("we") },
  responses: {
    200: { description: "What happened to the delivery", content: { "application/json": { schema: WebhookTestSchema } } },
    ...openApiErrorResponses,
  },
});

export type TestWebhookEndpointResponse = z.infer<typeof WebhookTestSchema>;

export function registerTestWebhookEndpoint(app: OpenAPIHono<AppEnv>) {
  app.openapi(testWebhookEndpointRoute, async (c) => {
    const services = c.get("services");
    const endpoint = await getEndpoint(services.db, c.get("auth").orgId, c.req.valid("param").id);
    const created = services.now();
    const event = { id: newId("evt"), object: "event", type: TEST_EVENT_TYPE, created, data: { object: endpointObject(endpoint) } };
    const outcome = await sendToEndpoint(services, endpoint, JSON.stringify(event));
    await recordAttempt(services.db, {
      orgId: endpoint.orgId,
      eventId: event.id,
      endpointId: endpoint.id,
      attempt: 1,
      outcome,
      at: services.now(),
      nextAttemptAt: null,
    });
    return c.json(
      {
        object: "webhook_test" as const,
        event: event.id,
        delivered: outcome.delivered,
        status_code: outcome.statusCode,
        latency_ms: outcome.latencyMs,
        error: outcome.error,
      },
      200,
    );
  });
}
