import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { RevokedSchema } from "../../schemas/admin";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { revokeApiKey } from "../../services/organizations";

export const revokeApiKeyRoute = createRoute({
  operationId: "adminRevokeApiKey",
  method: "delete",
  path: "/admin/v1/api_keys/{id}",
  security: [{ operatorAuth: [] }],
  request: { params: IdPathParam("key") },
  responses: { 200: { description: "Revoked, effective immediately", content: { "application/json": { schema: RevokedSchema } } }, ...operatorErrorResponses },
});

export function registerAdminRevokeApiKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(revokeApiKeyRoute, async (c) => {
    const { db, env, now } = c.get("services");
    return c.json(await revokeApiKey(db, env, c.req.valid("param").id, now()), 200);
  });
}
