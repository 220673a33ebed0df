import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { offsetPagingQuery } from "../../lib/lists";
import { IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { ShotListSchema } from "../../schemas/sessions";
import { listSessionItems, signedObjectContext } from "../../services/session-reads";

export const listShotsRoute = createRoute({
  operationId: "listSessionShots",
  method: "get",
  path: "/v1/sessions/{id}/shots",
  tags: ["Sessions"],
  summary: "All shots of a session (the session embeds the first 100), offset-paged",
  security: [{ bearerAuth: [] }],
  request: { params: IdPathParam("sess"), query: z.object(offsetPagingQuery()) },
  responses: {
    200: { description: "List of shots", content: { "application/json": { schema: ShotListSchema } } },
    ...openApiErrorResponses,
  },
});

export type ListShotsResponse = z.infer<typeof ShotListSchema>;

export function registerListSessionShots(app: OpenAPIHono<AppEnv>) {
  app.openapi(listShotsRoute, async (c) => {
    const { db, env, now } = c.get("services");
    const { limit, offset } = c.req.valid("query");
    const list = await listSessionItems(db, signedObjectContext(env, c.req.url, now()), c.get("auth").orgId, c.req.valid("param").id, "shots", { limit, offset });
    return c.json(list as ListShotsResponse, 200);
  });
}
