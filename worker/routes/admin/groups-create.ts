import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { GroupSchema } from "../../schemas/admin";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { createGroup } from "../../services/organizations";

export const createGroupRoute = createRoute({
  operationId: "adminCreateGroup",
  method: "post",
  path: "/admin/v1/organizations/{id}/groups",
  security: [{ operatorAuth: [] }],
  request: {
    params: IdPathParam("org"),
    body: { required: true, content: { "application/json": { schema: z.object({ name: z.string().min(1).max(200) }) } } },
  },
  responses: { 200: { description: "Created", content: { "application/json": { schema: GroupSchema } } }, ...operatorErrorResponses },
});

export function registerAdminCreateGroup(app: OpenAPIHono<AppEnv>) {
  app.openapi(createGroupRoute, async (c) => {
    const { db, now } = c.get("services");
    return c.json(await createGroup(db, c.req.valid("param").id, c.req.valid("json").name, now()), 200);
  });
}
