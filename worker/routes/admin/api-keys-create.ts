import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { CreatedApiKeySchema } from "../../schemas/admin";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { mintApiKey } from "../../services/organizations";

export const createApiKeyRoute = createRoute({
  operationId: "adminCreateApiKey",
  method: "post",
  path: "/admin/v1/organizations/{id}/api_keys",
  security: [{ operatorAuth: [] }],
  request: {
    params: IdPathParam("org"),
    body: { required: false, content: { "application/json": { schema: z.object({ name: z.string().max(200).optional() }) } } },
  },
  responses: { 200: { description: "Minted; `key` is shown only here", content: { "application/json": { schema: CreatedApiKeySchema } } }, ...operatorErrorResponses },
});

export function registerAdminCreateApiKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(createApiKeyRoute, async (c) => {
    const { db, now, environment } = c.get("services");
    const body = c.req.valid("json") ?? {};
    return c.json(await mintApiKey(db, c.req.valid("param").id, environment, body.name ?? null, now()), 200);
  });
}
