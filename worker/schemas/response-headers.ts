// The response headers the Worker's middleware and idempotency rule add, declared once as OpenAPI
// `components.headers` and referenced from every response that carries them. Route files do not
// declare these: the middleware adds them to every route it guards, so one rule here says where
// they appear, and test/worker/openapi-headers.test.ts checks each rule against real answers.

/** The security scheme of the public API key; `requireApiKey` (middleware/auth.ts) guards its operations. */
export const API_KEY_SCHEME = "bearerAuth";

const RESPONSE_HEADER_COMPONENTS = {
  RequestId: {
    description: "Identifies this request (`req_…`); on every answer, error or not. Quote it when asking about a request.",
    required: true,
    schema: { type: "string", pattern: "^req_[0-9A-Za-z]+$" },
    example: "req_4f9XoT2qLw8bZ1mN3pQ7rS5u",
  },
  // Not `required`: a 500 raised before the key could be checked (the rate limiter unreachable) has none.
  RateLimitLimit: {
    description: "Requests allowed per minute for this API key. On every answer once the key is verified (so not on a 401).",
    schema: { type: "integer", minimum: 1 },
    example: 60,
  },
  RateLimitRemaining: {
    description: "Requests left in the current one-minute window for this API key (0 on a 429).",
    schema: { type: "integer", minimum: 0 },
    example: 59,
  },
  RateLimitReset: {
    description: "Seconds until the current one-minute window ends and the count starts again.",
    schema: { type: "integer", minimum: 0 },
    example: 42,
  },
  RetryAfter: {
    description:
      "Seconds to wait before retrying: on every `429 rate_limit_exceeded` and `503 dns_unavailable`, and on a `409 idempotency_key_in_progress` (retry with the same `Idempotency-Key`).",
    schema: { type: "integer", minimum: 0 },
    example: 1,
  },
  IdempotentReplayed: {
    description: "`true` when this answer is the stored answer of an earlier request with the same `Idempotency-Key`; absent otherwise.",
    schema: { type: "string", enum: ["true"] },
    example: "true",
  },
} as const;

type HeaderComponent = keyof typeof RESPONSE_HEADER_COMPONENTS;
const ref = (name: HeaderComponent) => ({ $ref: `#/components/headers/${name}` });

type Operation = {
  security?: Record<string, unknown>[];
  parameters?: { in?: string; name?: string }[];
  responses?: Record<string, { headers?: Record<string, unknown> }>;
};
type OpenApiDocument = { paths?: Record<string, Record<string, any>>; components?: Record<string, any> };

const takesIdempotencyKey = (op: Operation) => (op.parameters ?? []).some((p) => p.in === "header" && p.name?.toLowerCase() === "idempotency-key");
const usesApiKey = (op: Operation) => (op.security ?? []).some((s) => API_KEY_SCHEME in s);

/** The headers one response of one operation carries, by name: each line is the rule of the code that sends it. */
function headersFor(op: Operation, status: string): Record<string, ReturnType<typeof ref>> {
  const headers: Record<string, ReturnType<typeof ref>> = {};
  // middleware/request-id.ts, on the whole app; app.onError keeps it on errors.
  headers["Request-Id"] = ref("RequestId");
  // middleware/auth.ts (requireApiKey): set once the key is known, so on every answer but a 401.
  if (usesApiKey(op) && status !== "401") {
    headers["RateLimit-Limit"] = ref("RateLimitLimit");
    headers["RateLimit-Remaining"] = ref("RateLimitRemaining");
    headers["RateLimit-Reset"] = ref("RateLimitReset");
  }
  // 429: middleware/auth.ts; 503: services/url-safety.ts (dns_unavailable);
  // 409: services/idempotency.ts (idempotency_key_in_progress), on operations that take the key.
  if (status === "429" || status === "503" || (status === "409" && takesIdempotencyKey(op))) headers["Retry-After"] = ref("RetryAfter");
  // services/idempotency.ts (runIdempotent): only a completed answer is stored, so only it is replayed.
  if (takesIdempotencyKey(op) && status === "200") headers["Idempotent-Replayed"] = ref("IdempotentReplayed");
  return headers;
}

/**
 * References the headers from every response of every operation that carries them, and declares the
 * components referenced (only those: the runner API has no rate limit). A route's own headers (e.g.
 * `X-Service-Cost-Cents`) stay beside them.
 */
export function withResponseHeaders<T extends OpenApiDocument>(doc: T): T {
  const used = new Set<HeaderComponent>();
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(operations) as Operation[]) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const headers = headersFor(op, status);
        for (const { $ref } of Object.values(headers)) used.add($ref.slice($ref.lastIndexOf("/") + 1) as HeaderComponent);
        response.headers = { ...response.headers, ...headers };
      }
    }
  }
  const components = (doc.components ??= {}) as Record<string, unknown>;
  const declared = Object.fromEntries([...used].sort().map((name) => [name, RESPONSE_HEADER_COMPONENTS[name]]));
  components.headers = { ...(components.headers as object), ...declared };
  return doc;
}
