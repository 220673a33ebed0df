import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { SessionSchema } from "../../schemas/sessions";
import { getSession, signedObjectContext } from "../../services/session-reads";

export const getSessionRoute = createRoute({
  operationId: "getSession",
  method: "get",
  path: "/v1/sessions/{id}",
  tags: ["Sessions"],
  summary: "A session, with the first 100 highlights, shots and players embedded",
  security: [{ bearerAuth: [] }],
  request: { params: IdPathParam("sess") },
  responses: {
    200: { description: "The session (the same object a webhook carries)", content: { "application/json": { schema: SessionSchema } } },
    ...openApiErrorResponses,
  },
});

export type GetSessionResponse = z.infer<typeof SessionSchema>;

export function registerGetSession(app: OpenAPIHono<AppEnv>) {
  app.openapi(getSessionRoute, async (c) => {
    const { db, env, now } = c.get("services");
    const session = await getSession(db, signedObjectContext(env, c.req.url, now()), c.get("auth").orgId, c.req.valid("param").id);
    return c.json(session, 200);
  });
}
