import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { TopUpLinkSchema } from "../../schemas/top-up-links";
import { getTopUpLink } from "../../services/top-up-links";

export const getTopUpLinkRoute = createRoute({
  operationId: "adminGetTopUpLink",
  method: "get",
  path: "/admin/v1/top_up_links/{id}",
  security: [{ operatorAuth: [] }],
  request: { params: IdPathParam("tul") },
  responses: { 200: { description: "The link and whether it was paid", content: { "application/json": { schema: TopUpLinkSchema } } }, ...operatorErrorResponses },
});

export function registerAdminGetTopUpLink(app: OpenAPIHono<AppEnv>) {
  app.openapi(getTopUpLinkRoute, async (c) => {
    const { db, now } = c.get("services");
    return c.json(await getTopUpLink(db, c.req.valid("param").id, now()), 200);
  });
}
