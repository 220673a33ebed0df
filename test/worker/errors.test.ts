import { describe, expect, it, beforeAll } from "vitest";
import { admin, call, createOrg, expectError, OPERATOR_TOKEN, type TestOrg } from "./helpers";

let org: TestOrg;
beforeAll(async () => {
  org = await createOrg();
});

describe("error envelope", () => {
  it("unknown routes get route_not_found in the envelope with a Request-Id", async () => {
    const err = await expectError(await call("/v1/nope", { key: org.key }), 404, "route_not_found");
    expect(err.type).toBe("invalid_request_error");
    await expectError(await call("/totally/elsewhere"), 404, "route_not_found");
  });

  it("a wrong method gets 405 method_not_allowed with Allow", async () => {
    const res = await call("/v1/balance", { method: "DELETE", key: org.key });
    expect(res.headers.get("Allow")).toBe("GET");
    await expectError(res, 405, "method_not_allowed");
  });

  it("a trailing slash gets a 404 that names the path without it, on every API", async () => {
    const runner = await admin("POST", "/admin/v1/runner_tokens", { name: "trailing slash" });
    const operator = { Authorization: `Bearer ${OPERATOR_TOKEN}` };
    const runnerAuth = { Authorization: `Bearer ${runner.token}` };
    const cases: { method: string; path: string; init?: Parameters<typeof call>[1]; suggests: string }[] = [
      { method: "GET", path: "/v1/sessions/", init: { key: org.key }, suggests: "GET /v1/sessions?" },
      { method: "POST", path: "/v1/sessions/", init: { key: org.key, json: { source: { url: "https://example.com/game.mp4" } } }, suggests: "POST /v1/sessions?" },
      { method: "GET", path: "/v1/sessions/ses_0123456789abcdefghijklmn/", init: { key: org.key }, suggests: "GET /v1/sessions/ses_0123456789abcdefghijklmn?" },
      { method: "DELETE", path: "/v1/webhook_endpoints/we_x//", init: { key: org.key }, suggests: "DELETE /v1/webhook_endpoints/we_x?" },
      { method: "PUT", path: "/v1/balance/", init: { key: org.key }, suggests: "/v1/balance (it allows GET)?" },
      { method: "POST", path: "/runner/v1/jobs/claim/", init: { headers: runnerAuth, json: {} }, suggests: "POST /runner/v1/jobs/claim?" },
      { method: "POST", path: "/admin/v1/organizations/", init: { headers: operator, json: { name: "x" } }, suggests: "POST /admin/v1/organizations?" },
      { method: "PATCH", path: "/uploads/v1/up_0123456789abcdefghijklmn/", init: { body: "abc" }, suggests: "PATCH /uploads/v1/up_0123456789abcdefghijklmn?" },
      { method: "POST", path: "/mcp/", init: { key: org.key, json: {} }, suggests: "POST /mcp?" },
    ];
    for (const c of cases) {
      const res = await call(c.path, { ...c.init, method: c.method });
      expect(res.headers.get("Allow"), `${c.method} ${c.path}`).toBeNull();
      const err = await expectError(res, 404, "route_not_found");
      expect(err.message, `${c.method} ${c.path}`).toBe(
        `Unrecognized request URL (${c.method} ${c.path}): paths in this API take no trailing slash. Did you mean ${c.suggests}`,
      );
    }
    // Without the slash the same requests are routed; a wrong method there is still a 405.
    expect((await call("/v1/sessions", { key: org.key })).status).toBe(200);
    await expectError(await call("/v1/balance", { method: "PUT", key: org.key }), 405, "method_not_allowed");
    // A path that is unknown with or without the slash gets the plain 404.
    const unknown = await expectError(await call("/v1/nothing/", { key: org.key }), 404, "route_not_found");
    expect(unknown.message).toMatch(/See \/docs/);
  });

  it("malformed JSON gets parameter_invalid, not a 500", async () => {
    const res = await call("/admin/v1/organizations", {
      method: "POST",
      body: "{not json",
      headers: { Authorization: `Bearer ${OPERATOR_TOKEN}`, "Content-Type": "application/json" },
    });
    const err = await expectError(res, 400, "parameter_invalid");
    expect(err.message).toMatch(/JSON/);
  });

  it("a JSON route sent a form or plain-text body is told to send JSON", async () => {
    for (const [type, body] of [["application/x-www-form-urlencoded", "source=https://example.com/game.mp4"], ["text/plain", '{"source":{"url":"https://example.com/game.mp4"}}']]) {
      const res = await call("/v1/sessions", { method: "POST", key: org.key, body, headers: { "Content-Type": type } });
      const err = await expectError(res, 400, "parameter_invalid");
      expect(err.message, type).toBe("The request body must be JSON: send it with `Content-Type: application/json` (a form or plain-text body is not read).");
    }
  });

  it("a field not sent is named as missing, with the others missing; a wrong value is named as invalid", async () => {
    const none = await expectError(await call("/v1/uploads", { method: "POST", key: org.key, json: {} }), 400, "parameter_invalid", "content_type");
    expect(none.message).toBe("Missing required field `content_type` (also missing: `size`).");
    const one = await expectError(await call("/v1/uploads", { method: "POST", key: org.key, json: { content_type: "video/mp4" } }), 400, "parameter_invalid", "size");
    expect(one.message).toBe("Missing required field `size`.");
    const wrong = await expectError(await call("/v1/uploads", { method: "POST", key: org.key, json: { content_type: "video/avi", size: 10 } }), 400, "parameter_invalid", "content_type");
    expect(wrong.message).toMatch(/^Invalid `content_type`: /);
    // A nested field whose parent was not sent names the parent.
    const source = await expectError(await call("/v1/sessions", { method: "POST", key: org.key, json: {} }), 400, "parameter_invalid");
    expect(source.message).not.toMatch(/undefined/);
  });

  it("validation failures name the field in param", async () => {
    const res = await call(`/admin/v1/organizations/${org.orgId}/credits`, {
      method: "POST",
      json: { amount_cents: "lots" },
      headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    await expectError(res, 400, "parameter_invalid", "amount_cents");
  });

  it("unknown ids get resource_missing", async () => {
    await expectError(
      await call("/admin/v1/organizations/org_doesnotexist00000000/api_keys", { method: "POST", json: {}, headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } }),
      404,
      "resource_missing",
    );
  });

  it("successful responses carry a Request-Id and rate-limit headers too", async () => {
    const res = await call("/v1/balance", { key: org.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("Request-Id")).toMatch(/^req_/);
    expect(res.headers.get("RateLimit-Limit")).toBe("60");
    expect(Number(res.headers.get("RateLimit-Remaining"))).toBeLessThan(60);
    expect(Number(res.headers.get("RateLimit-Reset"))).toBeGreaterThan(0);
  });
});

describe("OpenAPI documents", () => {
  // Full validation with a real OpenAPI validator runs in Node against the
  // local stack (test/e2e/stack.test.ts): the validator reads its schemas from disk.
  it("serves OpenAPI 3.1 documents for the public and operator APIs", async () => {
    for (const path of ["/v1/openapi.json", "/admin/v1/openapi.json"]) {
      const res = await call(path, { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).openapi).toBe("3.1.0");
    }
  });

  it("the public document does not leak operator routes", async () => {
    const doc: any = await (await call("/v1/openapi.json")).json();
    expect(Object.keys(doc.paths).some((p) => p.startsWith("/admin"))).toBe(false);
    expect(doc.components.schemas.Error).toBeDefined();
    expect(doc.components.schemas.Balance).toBeDefined();
  });

  it("creates organizations with a default group", async () => {
    const created = await admin("POST", "/admin/v1/organizations", { name: "Acme" });
    expect(created.id).toMatch(/^org_/);
    expect(created.default_group).toMatch(/^grp_/);
  });
});
