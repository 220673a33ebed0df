import { describe, expect, it, beforeAll } from "vitest";
import { admin, call, createOrg, expectError, type TestOrg } from "./helpers";

// The shared authentication suite runs against every /v1 route in the public
// OpenAPI document, so a route added later is covered without editing this file.
let routes: Array<{ method: string; path: string }> = [];
let org: TestOrg;

beforeAll(async () => {
  const doc: any = await (await call("/v1/openapi.json")).json();
  routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, "sess_doesnotexist0000000000") })),
  );
  org = await createOrg();
});

describe("authentication on every /v1 route", () => {
  it("finds the routes to test", () => {
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.every((r) => r.path.startsWith("/v1/"))).toBe(true);
  });

  it("answers 401 missing_api_key without an Authorization header", async () => {
    for (const r of routes) {
      const err = await expectError(await call(r.path, { method: r.method }), 401, "missing_api_key");
      expect(err.type).toBe("authentication_error");
    }
  });

  it("answers 401 missing_api_key for a non-Bearer scheme", async () => {
    for (const r of routes) {
      await expectError(await call(r.path, { method: r.method, headers: { Authorization: "Basic Zm9vOmJhcg==" } }), 401, "missing_api_key");
    }
  });

  it("answers 401 invalid_api_key for malformed and unknown keys", async () => {
    for (const r of routes) {
      await expectError(await call(r.path, { method: r.method, key: "not-a-key" }), 401, "invalid_api_key");
      await expectError(await call(r.path, { method: r.method, key: `hk_stg_${"x".repeat(32)}` }), 401, "invalid_api_key");
    }
  });

  it("answers 401 wrong_environment for a production key on staging, naming both environments", async () => {
    for (const r of routes) {
      const err = await expectError(await call(r.path, { method: r.method, key: `hk_prod_${"A".repeat(32)}` }), 401, "wrong_environment");
      expect(err.message).toContain("production");
      expect(err.message).toContain("staging");
    }
  });
});

describe("revocation", () => {
  it("is immediate, even for a key this isolate has already verified", async () => {
    const fresh = await createOrg();
    expect((await call("/v1/balance", { key: fresh.key })).status).toBe(200);
    await admin("DELETE", `/admin/v1/api_keys/${fresh.keyId}`);
    await expectError(await call("/v1/balance", { key: fresh.key }), 401, "invalid_api_key");
    // Other keys are unaffected.
    expect((await call("/v1/balance", { key: org.key })).status).toBe(200);
  });

  it("also refuses a revoked key that this isolate never cached", async () => {
    const fresh = await createOrg();
    await admin("DELETE", `/admin/v1/api_keys/${fresh.keyId}`);
    await expectError(await call("/v1/balance", { key: fresh.key }), 401, "invalid_api_key");
  });
});

describe("operator API", () => {
  it("refuses a wrong operator token and customer API keys", async () => {
    await expectError(await call("/admin/v1/organizations", { method: "POST", json: { name: "x" }, key: "wrong-token-wrong-token" }), 401, "invalid_operator_token");
    await expectError(await call("/admin/v1/organizations", { method: "POST", json: { name: "x" }, key: org.key }), 401, "invalid_operator_token");
    await expectError(await call("/admin/v1/organizations", { method: "POST", json: { name: "x" } }), 401, "invalid_operator_token");
  });

  it("mints staging keys on a staging server and never stores the plaintext", async () => {
    const fresh = await createOrg();
    expect(fresh.key).toMatch(/^hk_stg_[0-9A-Za-z]{32}$/);
    const { env } = await import("cloudflare:workers");
    const rows = await env.DB.prepare("SELECT hash, prefix FROM api_keys WHERE id = ?").bind(fresh.keyId).all<{ hash: string; prefix: string }>();
    expect(rows.results[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.results[0].hash).not.toContain(fresh.key);
    expect(fresh.key.startsWith(rows.results[0].prefix)).toBe(true);
  });
});
