import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { AutoRechargeSchema, AutoRechargeUpdateSchema } from "../../schemas/auto-recharge";
import { setAutoRecharge } from "../../services/auto-recharge";

export const updateAutoRechargeRoute = createRoute({
  operationId: "adminUpdateAutoRecharge",
  method: "patch",
  path: "/admin/v1/organizations/{id}/auto_recharge",
  security: [{ operatorAuth: [] }],
  request: { params: IdPathParam("org"), body: { required: true, content: { "application/json": { schema: AutoRechargeUpdateSchema } } } },
  responses: { 200: { description: "The organization's auto-recharge setting", content: { "application/json": { schema: AutoRechargeSchema } } }, ...operatorErrorResponses },
});

export type UpdateAutoRechargeResponse = z.infer<typeof AutoRechargeSchema>;

export function registerAdminUpdateAutoRecharge(app: OpenAPIHono<AppEnv>) {
  app.openapi(updateAutoRechargeRoute, async (c) => {
    const body = c.req.valid("json");
    const settings = body.enabled
      ? { thresholdCents: body.threshold_cents, amountCents: body.amount_cents, paymentCustomerId: body.payment_customer_id, paymentMethodId: body.payment_method_id }
      : null;
    return c.json(await setAutoRecharge(c.get("services").db, c.req.valid("param").id, settings), 200);
  });
}
