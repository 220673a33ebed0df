import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { cursorPagingQuery, listEnvelope, takePage } from "../../lib/lists";
import { openApiErrorResponses } from "../../schemas/common";
import { UsageEventListSchema } from "../../schemas/usage";
import { listUsageEvents, usageEventObject } from "../../services/billing";

const unixSeconds = (name: string, description: string) =>
  z.coerce.number().int().min(0).optional().openapi({ param: { name, in: "query" }, description });

export const listUsageRoute = createRoute({
  operationId: "listUsage",
  method: "get",
  path: "/v1/usage",
  tags: ["Billing"],
  summary: "Usage events, one per billable job, newest first",
  security: [{ bearerAuth: [] }],
  request: {
    query: z.object({
      ...cursorPagingQuery(100, 20),
      status: z.enum(["held", "settled", "voided"]).optional().openapi({ param: { name: "status", in: "query" } }),
      api_key: z.string().min(1).max(100).optional().openapi({ param: { name: "api_key", in: "query" }, description: "Id of the submitting API key (`key_…`)" }),
      "created[gte]": unixSeconds("created[gte]", "Only events created at or after this Unix time"),
      "created[lte]": unixSeconds("created[lte]", "Only events created at or before this Unix time"),
    }),
  },
  responses: {
    200: { description: "List of usage events", content: { "application/json": { schema: UsageEventListSchema } } },
    ...openApiErrorResponses,
  },
});

export type ListUsageResponse = z.infer<typeof UsageEventListSchema>;

export function registerListUsage(app: OpenAPIHono<AppEnv>) {
  app.openapi(listUsageRoute, async (c) => {
    const { db } = c.get("services");
    const query = c.req.valid("query");
    const { rows, totalCount } = await listUsageEvents(
      db,
      c.get("auth").orgId,
      { status: query.status, apiKeyId: query.api_key, createdGte: query["created[gte]"], createdLte: query["created[lte]"] },
      { limit: query.limit, startingAfter: query.starting_after },
    );
    const page = takePage(rows, query.limit);
    return c.json(listEnvelope(page.data.map(usageEventObject), { hasMore: page.hasMore, totalCount }), 200);
  });
}
