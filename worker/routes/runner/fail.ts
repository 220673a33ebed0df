import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { errorResponse, IdPathParam, openApiErrorResponses } from "../../schemas/common";
import { ERROR_CODES_FOR_SESSIONS } from "../../schemas/runner";
import { failJob } from "../../services/jobs";
import { lifecycleDeps } from "../../services/lifecycle";
import { publicBaseUrl } from "../../services/media-urls";

export const failJobRoute = createRoute({
  operationId: "runnerFailJob",
  method: "post",
  path: "/runner/v1/jobs/{id}/fail",
  summary: "Report a failure; the session becomes `failed` and the hold is voided",
  security: [{ runnerAuth: [] }],
  request: {
    params: IdPathParam("job"),
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            lease_id: z.string().min(1),
            code: z.enum(ERROR_CODES_FOR_SESSIONS),
            message: z.string().min(1).max(1000),
          }),
        },
      },
    },
  },
  responses: {
    200: { description: "Recorded", content: { "application/json": { schema: z.object({ status: z.literal("failed") }) } } },
    409: errorResponse("`lease_lost`"),
    ...openApiErrorResponses,
  },
});

export function registerRunnerFailJob(app: OpenAPIHono<AppEnv>) {
  app.openapi(failJobRoute, async (c) => {
    const body = c.req.valid("json");
    const deps = lifecycleDeps(c.get("services"), publicBaseUrl(c.env, c.req.url));
    await failJob(deps, c.req.valid("param").id, body.lease_id, body.code, body.message);
    return c.json({ status: "failed" as const }, 200);
  });
}
