import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { RevokedSchema } from "../../schemas/admin";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { revokeRunnerToken } from "../../services/organizations";

export const revokeRunnerTokenRoute = createRoute({
  operationId: "adminRevokeRunnerToken",
  method: "delete",
  path: "/admin/v1/runner_tokens/{id}",
  security: [{ operatorAuth: [] }],
  request: { params: IdPathParam("rt") },
  responses: { 200: { description: "Revoked", content: { "application/json": { schema: RevokedSchema } } }, ...operatorErrorResponses },
});

export function registerAdminRevokeRunnerToken(app: OpenAPIHono<AppEnv>) {
  app.openapi(revokeRunnerTokenRoute, async (c) => {
    const { db, now } = c.get("services");
    return c.json(await revokeRunnerToken(db, c.req.valid("param").id, now()), 200);
  });
}
