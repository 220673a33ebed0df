import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { notFound } from "../../errors";
import { IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { CreateShareLinkBodySchema, ShareLinkSchema } from "../../schemas/share-links";
import { findSessionRow } from "../../services/session-object";
import { createShareLink, hubBaseUrl } from "../../services/share-links";

export const createShareLinkRoute = createRoute({
  operationId: "createSessionShareLink",
  method: "post",
  path: "/v1/sessions/{id}/share_links",
  tags: ["Sessions"],
  summary: "A signed, expiring link to the session's hub page, to open in a browser or send to a coach",
  description:
    "The hub page shows the session to people without an API key: progress while it is queued or processing; the game video, a highlight reel, a shot chart and box scores once processed; the error and what to do next if it failed. Links are not stored: mint one whenever you need it. Every link stops working at `expires`, and all links at once when the operator rotates the hub signing key.",
  security: [{ bearerAuth: [] }],
  request: {
    params: IdPathParam("sess"),
    body: { required: false, content: { "application/json": { schema: CreateShareLinkBodySchema } } },
  },
  responses: {
    200: { description: "The link", content: { "application/json": { schema: ShareLinkSchema } } },
    ...openApiErrorResponses,
  },
});

export type CreateShareLinkResponse = z.infer<typeof ShareLinkSchema>;

export function registerCreateSessionShareLink(app: OpenAPIHono<AppEnv>) {
  app.openapi(createShareLinkRoute, async (c) => {
    const { db, env, now } = c.get("services");
    const { id } = c.req.valid("param");
    // No body (or an empty one) means the defaults.
    const body = CreateShareLinkBodySchema.parse((c.req.valid("json") as object | undefined) ?? {});
    const session = await findSessionRow(db, c.get("auth").orgId, id);
    if (!session) throw notFound("session", id);
    const link = await createShareLink(env, hubBaseUrl(env, c.req.url), session.id, { expiresInSeconds: body.expires_in_seconds, now: now() });
    return c.json({ object: "share_link" as const, session: session.id, url: link.url, expires: link.expires }, 200);
  });
}
