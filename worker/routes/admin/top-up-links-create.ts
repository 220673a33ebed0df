import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { IdPathParam, operatorErrorResponses } from "../../schemas/common";
import { TopUpLinkCreateSchema, TopUpLinkSchema } from "../../schemas/top-up-links";
import { publicBaseUrl } from "../../services/media-urls";
import { paymentProviderFrom } from "../../services/payments";
import { createTopUpLink } from "../../services/top-up-links";

export const createTopUpLinkRoute = createRoute({
  operationId: "adminCreateTopUpLink",
  method: "post",
  path: "/admin/v1/organizations/{id}/top_up_links",
  security: [{ operatorAuth: [] }],
  request: { params: IdPathParam("org"), body: { required: true, content: { "application/json": { schema: TopUpLinkCreateSchema } } } },
  responses: { 200: { description: "The link to send the payer", content: { "application/json": { schema: TopUpLinkSchema } } }, ...operatorErrorResponses },
});

export type CreateTopUpLinkResponse = z.infer<typeof TopUpLinkSchema>;

export function registerAdminCreateTopUpLink(app: OpenAPIHono<AppEnv>) {
  app.openapi(createTopUpLinkRoute, async (c) => {
    const { db, env, now } = c.get("services");
    const baseUrl = publicBaseUrl(env, c.req.url);
    const payments = paymentProviderFrom(env, baseUrl);
    if (!payments) {
      throw new ApiError("service_misconfigured", "Card top-ups are disabled: set the STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET secrets.");
    }
    const link = await createTopUpLink(db, payments, { orgId: c.req.valid("param").id, amountCents: c.req.valid("json").amount_cents, baseUrl }, now());
    return c.json(link, 200);
  });
}
