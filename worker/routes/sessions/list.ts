import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { cursorPagingQuery } from "../../lib/lists";
import { openApiErrorResponses } from "../../schemas/common";
import { SessionListSchema } from "../../schemas/sessions";
import { listSessions, signedObjectContext } from "../../services/session-reads";

export const listSessionsRoute = createRoute({
  operationId: "listSessions",
  method: "get",
  path: "/v1/sessions",
  tags: ["Sessions"],
  summary: "The organization's sessions, newest first; each item is the full Session",
  security: [{ bearerAuth: [] }],
  request: {
    query: z.object({
      ...cursorPagingQuery(100, 20),
      status: z.enum(["queued", "processing", "processed", "failed"]).optional().openapi({ param: { name: "status", in: "query" } }),
      group: z.string().min(1).max(100).optional().openapi({ param: { name: "group", in: "query" }, example: "grp_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    }),
  },
  responses: {
    200: { description: "List of sessions", content: { "application/json": { schema: SessionListSchema } } },
    ...openApiErrorResponses,
  },
});

export type ListSessionsResponse = z.infer<typeof SessionListSchema>;

export function registerListSessions(app: OpenAPIHono<AppEnv>) {
  app.openapi(listSessionsRoute, async (c) => {
    const { db, env, now } = c.get("services");
    const query = c.req.valid("query");
    const list = await listSessions(
      db,
      signedObjectContext(env, c.req.url, now()),
      c.get("auth").orgId,
      { status: query.status, groupId: query.group },
      { limit: query.limit, startingAfter: query.starting_after },
    );
    return c.json(list, 200);
  });
}
