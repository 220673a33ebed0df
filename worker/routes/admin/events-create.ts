import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { EventSchema } from "../../schemas/events";
import { emitEvent, EVENT_TYPES } from "../../services/events";
import { requireOrganization } from "../../services/organizations";

const EmitEventBody = z.object({
  type: z.enum(EVENT_TYPES),
  object: z.record(z.string(), z.unknown()).openapi({ description: "Becomes the event's `data.object`" }),
});

export const emitEventRoute = createRoute({
  operationId: "adminEmitEvent",
  method: "post",
  path: "/admin/v1/organizations/{id}/events",
  summary: "Emit an event to an organization's webhook endpoints, as the job lifecycle does",
  description:
    "For operators only: debugging a customer's receiver and load-testing delivery (bench/webhooks.ts). The event is stored, listed by GET /v1/events and delivered like any other, so use it on test organizations.",
  security: [{ operatorAuth: [] }],
  request: { params: IdPathParam("org"), body: { required: true, content: { "application/json": { schema: EmitEventBody } } } },
  responses: { 200: { description: "The stored event", content: { "application/json": { schema: EventSchema } } }, ...operatorErrorResponses },
});

export function registerAdminEmitEvent(app: OpenAPIHono<AppEnv>) {
  app.openapi(emitEventRoute, async (c) => {
    const services = c.get("services");
    const orgId = c.req.valid("param").id;
    await requireOrganization(services.db, orgId);
    const { type, object } = c.req.valid("json");
    return c.json(await emitEvent(services, { orgId, type, object }), 200);
  });
}
