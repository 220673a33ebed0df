// Helpers for tests that drive the Worker through its own fetch handler, with
// real local D1, R2, Durable Objects and queues (vitest-pool-workers).
import { exports } from "cloudflare:workers";

export const OPERATOR_TOKEN = "op_test_operator_token_0123456789abcdef";
export const BASE = "https://api.test";

export async function call(path: string, init: RequestInit & { json?: unknown; key?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("Authorization", `Bearer ${init.key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(`${BASE}${path}`, { ...init, headers, body }));
}

export async function admin<T = any>(method: string, path: string, json?: unknown): Promise<T> {
  const res = await call(path, { method, json, headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const body = await res.json();
  if (!res.ok) throw new Error(`admin ${method} ${path} → ${res.status} ${JSON.stringify(body)}`);
  return body as T;
}

export interface TestOrg {
  orgId: string;
  groupId: string;
  key: string;
  keyId: string;
}

/** A fresh organization with one staging API key and, optionally, credits. */
export async function createOrg(opts: { creditsCents?: number } = {}): Promise<TestOrg> {
  const org = await admin("POST", "/admin/v1/organizations", { name: "Test org" });
  const key = await admin("POST", `/admin/v1/organizations/${org.id}/api_keys`, { name: "test" });
  if (opts.creditsCents) await admin("POST", `/admin/v1/organizations/${org.id}/credits`, { amount_cents: opts.creditsCents });
  return { orgId: org.id, groupId: org.default_group, key: key.key, keyId: key.id };
}

export async function expectError(res: Response, status: number, code: string, param?: string) {
  const body: any = await res.json();
  const detail = `${res.status} ${JSON.stringify(body)}`;
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${detail}`);
  if (body?.error?.code !== code) throw new Error(`expected code ${code}, got ${detail}`);
  if (typeof body.error.message !== "string" || !body.error.type) throw new Error(`bad envelope: ${detail}`);
  if (param !== undefined && body.error.param !== param) throw new Error(`expected param ${param}, got ${detail}`);
  if (!/^req_[0-9A-Za-z]+$/.test(res.headers.get("Request-Id") ?? "")) throw new Error(`missing Request-Id on ${detail}`);
  return body.error;
}

/**
 * Changes what the local DNS-over-HTTPS stand-in answers for `name`
 * (test/support/doh-server.ts); use names of your own, the zone is shared by
 * every test file.
 */
export async function setDnsAnswer(dohUrl: string, name: string, entry: { A?: string[]; AAAA?: string[]; fault?: string }): Promise<void> {
  const res = await fetch(`${new URL(dohUrl).origin}/control/zone/${encodeURIComponent(name)}`, { method: "PUT", body: JSON.stringify(entry) });
  if (res.status !== 204) throw new Error(`DoH stand-in refused the zone change: ${res.status}`);
}
