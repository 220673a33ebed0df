import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { offsetPagingQuery } from "../../lib/lists";
import { IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { PlayerListSchema } from "../../schemas/sessions";
import { listSessionItems, signedObjectContext } from "../../services/session-reads";

export const listPlayersRoute = createRoute({
  operationId: "listSessionPlayers",
  method: "get",
  path: "/v1/sessions/{id}/players",
  tags: ["Sessions"],
  summary: "All players of a session (the session embeds the first 100), offset-paged",
  security: [{ bearerAuth: [] }],
  request: { params: IdPathParam("sess"), query: z.object(offsetPagingQuery()) },
  responses: {
    200: { description: "List of players", content: { "application/json": { schema: PlayerListSchema } } },
    ...openApiErrorResponses,
  },
});

export type ListPlayersResponse = z.infer<typeof PlayerListSchema>;

export function registerListSessionPlayers(app: OpenAPIHono<AppEnv>) {
  app.openapi(listPlayersRoute, async (c) => {
    const { db, env, now } = c.get("services");
    const { limit, offset } = c.req.valid("query");
    const list = await listSessionItems(db, signedObjectContext(env, c.req.url, now()), c.get("auth").orgId, c.req.valid("param").id, "players", { limit, offset });
    return c.json(list as ListPlayersResponse, 200);
  });
}
