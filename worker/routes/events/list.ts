import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { cursorPagingQuery, listEnvelope, takePage } from "../../lib/lists";
import { openApiErrorResponses } from "../../schemas/common";
import { EventListSchema } from "../../schemas/events";
import { eventObject, listEvents } from "../../services/events";

const unixSeconds = (name: string, description: string) =>
  z.coerce.number().int().min(0).optional().openapi({ param: { name, in: "query" }, description });

export const listEventsRoute = createRoute({
  operationId: "listEvents",
  method: "get",
  path: "/v1/events",
  tags: ["Webhooks"],
  summary: "Every event emitted for the organization, newest first: catch up on missed deliveries",
  security: [{ bearerAuth: [] }],
  request: {
    query: z.object({
      ...cursorPagingQuery(100, 20),
      type: z.string().min(1).max(100).optional().openapi({ param: { name: "type", in: "query" }, example: "session.processed" }),
      "created[gte]": unixSeconds("created[gte]", "Only events created at or after this Unix time"),
      "created[lte]": unixSeconds("created[lte]", "Only events created at or before this Unix time"),
    }),
  },
  responses: {
    200: { description: "List of events", content: { "application/json": { schema: EventListSchema } } },
    ...openApiErrorResponses,
  },
});

export type ListEventsResponse = z.infer<typeof EventListSchema>;

export function registerListEvents(app: OpenAPIHono<AppEnv>) {
  app.openapi(listEventsRoute, async (c) => {
    const query = c.req.valid("query");
    const { rows, totalCount } = await listEvents(c.get("services").db, c.get("auth").orgId, {
      limit: query.limit,
      startingAfter: query.starting_after,
      type: query.type,
      createdGte: query["created[gte]"],
      createdLte: query["created[lte]"],
    });
    const page = takePage(rows, query.limit);
    return c.json(listEnvelope(page.data.map(eventObject), { hasMore: page.hasMore, totalCount }), 200);
  });
}
