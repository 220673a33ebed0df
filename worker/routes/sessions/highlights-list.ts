import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { offsetPagingQuery } from "../../lib/lists";
import { IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { HighlightListSchema } from "../../schemas/sessions";
import { listSessionItems, signedObjectContext } from "../../services/session-reads";

export const listHighlightsRoute = createRoute({
  operationId: "listSessionHighlights",
  method: "get",
  path: "/v1/sessions/{id}/highlights",
  tags: ["Sessions"],
  summary: "All highlights of a session (the session embeds the first 100), offset-paged",
  security: [{ bearerAuth: [] }],
  request: { params: IdPathParam("sess"), query: z.object(offsetPagingQuery()) },
  responses: {
    200: { description: "List of highlights", content: { "application/json": { schema: HighlightListSchema } } },
    ...openApiErrorResponses,
  },
});

export type ListHighlightsResponse = z.infer<typeof HighlightListSchema>;

export function registerListSessionHighlights(app: OpenAPIHono<AppEnv>) {
  app.openapi(listHighlightsRoute, async (c) => {
    const { db, env, now } = c.get("services");
    const { limit, offset } = c.req.valid("query");
    const list = await listSessionItems(db, signedObjectContext(env, c.req.url, now()), c.get("auth").orgId, c.req.valid("param").id, "highlights", { limit, offset });
    return c.json(list as ListHighlightsResponse, 200);
  });
}
