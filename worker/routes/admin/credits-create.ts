import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { CreditGrantSchema } from "../../schemas/admin";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { addCredits } from "../../services/organizations";

const AddCreditsBody = z.object({
  amount_cents: z.number().int().positive().max(1_000_000_000),
  source: z.enum(["invoice", "card_top_up", "auto_recharge", "promotional", "manual"]).default("manual"),
  expires_at: z.number().int().positive().optional().openapi({ description: "Unix seconds; default one year from now" }),
  note: z.string().max(500).optional(),
});

export const addCreditsRoute = createRoute({
  operationId: "adminAddCredits",
  method: "post",
  path: "/admin/v1/organizations/{id}/credits",
  security: [{ operatorAuth: [] }],
  request: { params: IdPathParam("org"), body: { required: true, content: { "application/json": { schema: AddCreditsBody } } } },
  responses: { 200: { description: "Grant added", content: { "application/json": { schema: CreditGrantSchema } } }, ...operatorErrorResponses },
});

export function registerAdminAddCredits(app: OpenAPIHono<AppEnv>) {
  app.openapi(addCreditsRoute, async (c) => {
    const { db, now } = c.get("services");
    const body = c.req.valid("json");
    const grant = await addCredits(
      db,
      c.req.valid("param").id,
      { amountCents: body.amount_cents, source: body.source, expiresAt: body.expires_at, note: body.note },
      now(),
    );
    return c.json(grant, 200);
  });
}
