import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { CreatedRunnerTokenSchema } from "../../schemas/admin";
import { operatorErrorResponses } from "../../schemas/common";
import { mintRunnerToken } from "../../services/organizations";

export const createRunnerTokenRoute = createRoute({
  operationId: "adminCreateRunnerToken",
  method: "post",
  path: "/admin/v1/runner_tokens",
  security: [{ operatorAuth: [] }],
  request: { body: { required: false, content: { "application/json": { schema: z.object({ name: z.string().max(200).optional() }) } } } },
  responses: { 200: { description: "Minted; `token` is shown only here", content: { "application/json": { schema: CreatedRunnerTokenSchema } } }, ...operatorErrorResponses },
});

export function registerAdminCreateRunnerToken(app: OpenAPIHono<AppEnv>) {
  app.openapi(createRunnerTokenRoute, async (c) => {
    const { db, now } = c.get("services");
    return c.json(await mintRunnerToken(db, c.req.valid("json")?.name ?? null, now()), 200);
  });
}
