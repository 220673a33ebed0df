// The OpenAPI documents declare the headers the Worker sends (issue 22, point 8): `Request-Id`,
// `RateLimit-*`, `Retry-After` and `Idempotent-Replayed`, once each as `components.headers`,
// referenced from every response that carries them (worker/schemas/response-headers.ts). Checked
// against real answers: a header an answer carries is declared on that operation's response for its
// status, and a header declared there is on the answer (but the replay marker, only on replays).
import { describe, expect, inject, it } from "vitest";
import { admin, call, createOrg, OPERATOR_TOKEN } from "./helpers";
import { videoUrl } from "./session-fixtures";

const TRACKED = ["Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "Idempotent-Replayed"];
/** Declared where it can appear, present only on a replay. */
const ONLY_ON_REPLAY = "Idempotent-Replayed";

type Doc = { paths: Record<string, Record<string, any>>; components: { headers?: Record<string, any> } };

async function load(path: string): Promise<Doc> {
  const res = await call(path);
  expect(res.status).toBe(200);
  return (await res.json()) as Doc;
}

/** The tracked headers the document declares on `method path` answering `status`, each resolved to its component. */
function declared(doc: Doc, method: string, path: string, status: number): Record<string, any> {
  const response = doc.paths[path]?.[method]?.responses?.[String(status)];
  if (!response) throw new Error(`${method.toUpperCase()} ${path} declares no ${status} answer`);
  const headers = Object.entries((response.headers ?? {}) as Record<string, { $ref?: string }>).filter(([name]) => TRACKED.includes(name));
  return Object.fromEntries(
    headers.map(([name, header]) => {
      const component = header.$ref ? doc.components.headers?.[header.$ref.replace("#/components/headers/", "")] : header;
      if (!component) throw new Error(`${name} on ${method} ${path} ${status} refers to a missing component ${header.$ref}`);
      return [name, component];
    }),
  );
}

/** What disagrees between a real answer and its declaration, as readable lines. */
function mismatches(doc: Doc, method: string, path: string, res: Response): string[] {
  const declaredHere = declared(doc, method, path, res.status);
  const sent = TRACKED.filter((name) => res.headers.has(name));
  const at = `${method.toUpperCase()} ${path} ${res.status}`;
  return [
    ...sent.filter((name) => !(name in declaredHere)).map((name) => `${at}: sends ${name}, not declared`),
    ...Object.keys(declaredHere)
      .filter((name) => name !== ONLY_ON_REPLAY && !res.headers.has(name))
      .map((name) => `${at}: declares ${name}, not sent`),
  ];
}

describe("response headers in the public API document", () => {
  it("are declared once each, as components, and referenced", async () => {
    const doc = await load("/v1/openapi.json");
    expect(Object.keys(doc.components.headers ?? {}).sort()).toEqual(["IdempotentReplayed", "RateLimitLimit", "RateLimitRemaining", "RateLimitReset", "RequestId", "RetryAfter"]);
    const submit = doc.paths["/v1/sessions"].post.responses;
    expect(submit["200"].headers).toMatchObject({
      "Request-Id": { $ref: "#/components/headers/RequestId" },
      "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
      "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
      "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
      "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" },
    });
    expect(submit["429"].headers).toMatchObject({ "Retry-After": { $ref: "#/components/headers/RetryAfter" } });
    expect(submit["401"].headers).not.toHaveProperty("RateLimit-Limit");
    expect(doc.paths["/v1/balance"].get.responses["200"].headers).not.toHaveProperty("Idempotent-Replayed");
    expect(doc.components.headers!.RequestId.required).toBe(true);
  });

  it("match what the API sends: success, replay, refusals and the rate limit", async () => {
    const doc = await load("/v1/openapi.json");
    const org = await createOrg({ creditsCents: 10_000 });
    const broke = await createOrg();
    const submit = (key: string, idempotencyKey: string) =>
      call("/v1/sessions", { method: "POST", key, json: { source: { url: videoUrl(1, "headers") }, duration_seconds: 60 }, headers: { "Idempotency-Key": idempotencyKey } });

    const exchanges: [string, string, Response][] = [];
    exchanges.push(["post", "/v1/sessions", await submit(org.key, "headers-1")]);
    const replay = await submit(org.key, "headers-1");
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    exchanges.push(["post", "/v1/sessions", replay]);
    exchanges.push(["post", "/v1/sessions", await submit(broke.key, "headers-2")]);
    exchanges.push(["post", "/v1/sessions", await call("/v1/sessions", { method: "POST", key: org.key, json: {} })]);
    exchanges.push(["get", "/v1/balance", await call("/v1/balance", { key: org.key })]);
    exchanges.push(["get", "/v1/balance", await call("/v1/balance")]);
    exchanges.push(["get", "/v1/sessions/{id}", await call("/v1/sessions/sess_nope", { key: org.key })]);
    const hook = { url: `${inject("webhookReceiverUrl")}/in/openapi-headers` };
    exchanges.push(["post", "/v1/webhook_endpoints", await call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: hook, headers: { "Idempotency-Key": "hook-1" } })]);
    exchanges.push(["post", "/v1/webhook_endpoints", await call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: hook, headers: { "Idempotency-Key": "hook-1" } })]);
    const limited = await Promise.all(Array.from({ length: 61 }, () => call("/v1/usage", { key: broke.key })));
    exchanges.push(["get", "/v1/usage", limited.find((r) => r.status === 200)!]);
    exchanges.push(["get", "/v1/usage", limited.find((r) => r.status === 429)!]);

    expect(exchanges.map(([, , res]) => res.status)).toEqual([200, 200, 402, 400, 200, 401, 404, 200, 200, 200, 429]);
    expect(exchanges.flatMap(([method, path, res]) => mismatches(doc, method, path, res))).toEqual([]);
  });

  it("catches an answer that carries an undeclared header (the check can fail)", async () => {
    const doc = await load("/v1/openapi.json");
    const res = await call("/v1/balance");
    expect(res.status).toBe(401);
    const stripped = structuredClone(doc);
    delete stripped.paths["/v1/balance"].get.responses["401"].headers["Request-Id"];
    expect(mismatches(stripped, "get", "/v1/balance", res)).toEqual(["GET /v1/balance 401: sends Request-Id, not declared"]);
    const org = await createOrg();
    const ok = await call("/v1/balance", { key: org.key });
    stripped.paths["/v1/balance"].get.responses["200"].headers["Retry-After"] = { $ref: "#/components/headers/RetryAfter" };
    expect(mismatches(stripped, "get", "/v1/balance", ok)).toEqual(["GET /v1/balance 200: declares Retry-After, not sent"]);
  });
});

describe("response headers in the runner API document", () => {
  it("match what the runner API sends: Request-Id on every answer, no rate limit", async () => {
    const doc = await load("/runner/v1/openapi.json");
    expect(Object.keys(doc.components.headers ?? {})).toEqual(["RequestId"]);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) expect(Object.keys(op.responses), `${method} ${path}`).not.toContain("429");
    }
    const { token } = await admin("POST", "/admin/v1/runner_tokens", { name: "headers" });
    const runner = { Authorization: `Bearer ${token}` };
    const exchanges: [string, string, Response][] = [
      ["post", "/runner/v1/jobs/claim", await call("/runner/v1/jobs/claim", { method: "POST", headers: runner, json: { wait_seconds: 0 } })],
      ["post", "/runner/v1/jobs/claim", await call("/runner/v1/jobs/claim", { method: "POST", json: { wait_seconds: 0 } })],
      ["post", "/runner/v1/jobs/{id}/heartbeat", await call("/runner/v1/jobs/job_nope/heartbeat", { method: "POST", headers: runner, json: { lease_id: "lease_nope" } })],
    ];
    expect(exchanges.map(([, , res]) => res.status)).toEqual([200, 401, 404]);
    expect(exchanges.flatMap(([method, path, res]) => mismatches(doc, method, path, res))).toEqual([]);
  });
});

describe("the operator API document", () => {
  it("declares the answers the operator API gives: its own token's 401, no rate limit, the headers it sends", async () => {
    const operator = { Authorization: `Bearer ${OPERATOR_TOKEN}` };
    const served = await call("/admin/v1/openapi.json", { headers: operator });
    expect(served.status).toBe(200);
    const doc = (await served.json()) as Doc;
    const ops = Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ at: `${method} ${path}`, op })));
    expect(ops.length).toBeGreaterThan(5);
    for (const { at, op } of ops) {
      expect(Object.keys(op.responses), at).not.toContain("429");
      expect(op.responses["401"]?.description, at).toContain("operator token");
    }
    const exchanges: [string, string, Response][] = [
      ["post", "/admin/v1/organizations", await call("/admin/v1/organizations", { method: "POST", headers: operator, json: { name: "documented" } })],
      ["post", "/admin/v1/organizations", await call("/admin/v1/organizations", { method: "POST", headers: { Authorization: "Bearer op_wrong_token_0123456789" }, json: { name: "refused" } })],
    ];
    expect(exchanges.map(([, , res]) => res.status)).toEqual([200, 401]);
    expect(((await exchanges[1][2].clone().json()) as any).error.code).toBe("invalid_operator_token");
    expect(exchanges.flatMap(([method, path, res]) => mismatches(doc, method, path, res))).toEqual([]);
  });
});
