import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { dnsUnavailableResponse, errorResponse, openApiErrorResponses } from "../../schemas/common";
import { SubmitSessionBody } from "../../schemas/session-create";
import { SessionSchema } from "../../schemas/sessions";
import { durableIdempotencyStore, IDEMPOTENCY_KEY_MAX, parseIdempotencyKey, requestFingerprint } from "../../services/idempotency";
import { signedObjectContext } from "../../services/session-reads";
import { submitSession } from "../../services/sessions";

export const createSessionRoute = createRoute({
  operationId: "createSession",
  method: "post",
  path: "/v1/sessions",
  tags: ["Sessions"],
  summary: "Submit a video for analysis (places a credit hold)",
  security: [{ bearerAuth: [] }],
  request: {
    headers: z.object({
      "idempotency-key": z
        .string()
        .optional()
        // Header names are case-insensitive; Hono's validator sees them lower-cased.
        .openapi({ description: `\`Idempotency-Key\`: at most ${IDEMPOTENCY_KEY_MAX} characters; the response is replayed for 24 hours` }),
    }),
    body: { required: true, content: { "application/json": { schema: SubmitSessionBody } } },
  },
  responses: {
    200: {
      description: "The session, `queued` (or the earlier session for the same link and settings)",
      headers: {
        "X-Service-Cost-Cents": { schema: { type: "integer" }, description: "Cents held for this submit (0 when an earlier session is returned)" },
        "X-Service-Available-Cents": { schema: { type: "integer" }, description: "Available balance after the hold" },
      },
      content: { "application/json": { schema: SessionSchema } },
    },
    ...openApiErrorResponses,
    402: errorResponse("`insufficient_credits`, with `needed_cents` and `available_cents`"),
    409: errorResponse("`upload_incomplete`, or `idempotency_key_in_progress` (retry shortly)"),
    410: errorResponse("`upload_expired`"),
    ...dnsUnavailableResponse,
  },
});

export type CreateSessionResponse = z.infer<typeof SessionSchema>;

export function registerCreateSession(app: OpenAPIHono<AppEnv>) {
  app.openapi(createSessionRoute, async (c) => {
    const services = c.get("services");
    const auth = c.get("auth");
    const key = parseIdempotencyKey(c.req.header("Idempotency-Key"));
    const input = c.req.valid("json");
    const result = await submitSession(
      {
        db: services.db,
        queue: services.env.JOBS_QUEUE,
        http: services.http,
        now: services.now,
        objects: signedObjectContext(services.env, c.req.url, services.now()),
        idempotency: key === undefined ? null : durableIdempotencyStore(services.env, auth.orgId, key),
      },
      { orgId: auth.orgId, apiKeyId: auth.apiKeyId },
      input,
      await requestFingerprint("POST", "/v1/sessions", input),
    );
    const headers = new Headers(result.headers);
    if (result.replayed) headers.set("Idempotent-Replayed", "true");
    return new Response(result.body, { status: result.status, headers }) as never;
  });
}
