import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { MeasuredAnswer, MeasuredRequest } from "../../../contract/runner-api";
import type { AppEnv } from "../../env";
import { errorResponse, IdPathParam, runnerErrorResponses } from "../../schemas/common";
import { measureJob } from "../../services/jobs";
import { lifecycleDeps } from "../../services/lifecycle";
import { publicBaseUrl } from "../../services/media-urls";

export const measuredRoute = createRoute({
  operationId: "runnerReportMeasured",
  method: "post",
  path: "/runner/v1/jobs/{id}/measured",
  summary: "Report the probed length before any analysis; the hold is raised to the measured cost, or the job stops",
  description:
    "Sent once the source is probed, before any analysis. When the organization's balance covers the measured cost, the session's hold is raised to it and the answer says `proceed: true`. When it does not, the session fails here (`error.code` `unknown`, a sentence naming the length, the cost and the credit available), the hold is voided, nothing is charged, and the answer says `proceed: false`: stop the job and report nothing more. Repeating the call with the same lease gives the same answer.",
  security: [{ runnerAuth: [] }],
  request: {
    params: IdPathParam("job"),
    body: { required: true, content: { "application/json": { schema: MeasuredRequest } } },
  },
  responses: {
    200: { description: "Whether to go on with the job", content: { "application/json": { schema: MeasuredAnswer } } },
    409: errorResponse("`lease_lost`"),
    ...runnerErrorResponses,
  },
});

export function registerRunnerReportMeasured(app: OpenAPIHono<AppEnv>) {
  app.openapi(measuredRoute, async (c) => {
    const body = c.req.valid("json");
    const deps = lifecycleDeps(c.get("services"), publicBaseUrl(c.env, c.req.url));
    return c.json(await measureJob(deps, c.req.valid("param").id, body.lease_id, body.duration_seconds), 200);
  });
}
