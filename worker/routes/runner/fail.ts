import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { FailAnswer, FailRequest } from "../../../contract/runner-api";
import type { AppEnv } from "../../env";
import { errorResponse, IdPathParam, runnerErrorResponses } from "../../schemas/common";
import { customerFailureMessage } from "../../services/failure-messages";
import { failJob } from "../../services/jobs";
import { lifecycleDeps } from "../../services/lifecycle";
import { publicBaseUrl } from "../../services/media-urls";

export const failJobRoute = createRoute({
  operationId: "runnerFailJob",
  method: "post",
  path: "/runner/v1/jobs/{id}/fail",
  summary: "Report a failure; the session becomes `failed` and the hold is voided",
  description:
    "`message` becomes the session's `error.message`: a sentence for the customer. One that shows file paths, stack traces, tool output or internal addresses is replaced by the code's standard sentence (the original is logged).",
  security: [{ runnerAuth: [] }],
  request: {
    params: IdPathParam("job"),
    body: { required: true, content: { "application/json": { schema: FailRequest } } },
  },
  responses: {
    200: { description: "Recorded", content: { "application/json": { schema: FailAnswer } } },
    409: errorResponse("`lease_lost`"),
    ...runnerErrorResponses,
  },
});

export function registerRunnerFailJob(app: OpenAPIHono<AppEnv>) {
  app.openapi(failJobRoute, async (c) => {
    const body = c.req.valid("json");
    const jobId = c.req.valid("param").id;
    const deps = lifecycleDeps(c.get("services"), publicBaseUrl(c.env, c.req.url));
    const message = customerFailureMessage(body.code, body.message);
    if (message !== body.message.trim()) {
      // The runner's wording showed internals: the customer gets the standard sentence, the log the original.
      console.warn(JSON.stringify({ level: "warn", msg: "runner failure message replaced", request_id: c.get("requestId"), job_id: jobId, code: body.code, reported: body.message }));
    }
    await failJob(deps, jobId, body.lease_id, body.code, message);
    return c.json({ status: "failed" as const }, 200);
  });
}
