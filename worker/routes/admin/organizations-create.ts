import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { OrganizationSchema } from "../../schemas/admin";
import { operatorErrorResponses } from "../../schemas/common";
import { createOrganization } from "../../services/organizations";

export const createOrganizationRoute = createRoute({
  operationId: "adminCreateOrganization",
  method: "post",
  path: "/admin/v1/organizations",
  security: [{ operatorAuth: [] }],
  request: { body: { required: true, content: { "application/json": { schema: z.object({ name: z.string().min(1).max(200) }) } } } },
  responses: { 200: { description: "Created", content: { "application/json": { schema: OrganizationSchema } } }, ...operatorErrorResponses },
});

export function registerAdminCreateOrganization(app: OpenAPIHono<AppEnv>) {
  app.openapi(createOrganizationRoute, async (c) => {
    const { db, now } = c.get("services");
    return c.json(await createOrganization(db, c.req.valid("json").name, now()), 200);
  });
}
