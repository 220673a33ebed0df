import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { BalanceSchema } from "../../schemas/balance";
import { openApiErrorResponses } from "../../schemas/common";
import { getBalance } from "../../services/billing";

export const getBalanceRoute = createRoute({
  operationId: "getBalance",
  method: "get",
  path: "/v1/balance",
  tags: ["Billing"],
  summary: "Credit balance of the caller's organization",
  security: [{ bearerAuth: [] }],
  responses: {
    200: { description: "The balance", content: { "application/json": { schema: BalanceSchema } } },
    ...openApiErrorResponses,
  },
});

export type GetBalanceResponse = z.infer<typeof BalanceSchema>;

export function registerGetBalance(app: OpenAPIHono<AppEnv>) {
  app.openapi(getBalanceRoute, async (c) => {
    const { db, now } = c.get("services");
    return c.json(await getBalance(db, c.get("auth").orgId, now()), 200);
  });
}
