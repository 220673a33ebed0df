import { describe, expect, it } from "vitest";
import { call, createOrg, expectError } from "./helpers";

describe("rate limit: 60 requests per minute per key", () => {
  it("lets exactly 60 concurrent requests through and answers the rest with 429 and Retry-After", async () => {
    const org = await createOrg();
    const responses = await Promise.all(Array.from({ length: 75 }, () => call("/v1/balance", { key: org.key })));
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok.length).toBe(60);
    expect(limited.length).toBe(15);
    const remaining = ok.map((r) => Number(r.headers.get("RateLimit-Remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (const res of limited) {
      const retryAfter = Number(res.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(res.headers.get("RateLimit-Remaining")).toBe("0");
      const err = await expectError(res, 429, "rate_limit_exceeded");
      expect(err.type).toBe("rate_limit_error");
    }
  });

  it("counts each key separately", async () => {
    const a = await createOrg();
    const b = await createOrg();
    await Promise.all(Array.from({ length: 61 }, () => call("/v1/balance", { key: a.key })));
    expect((await call("/v1/balance", { key: a.key })).status).toBe(429);
    expect((await call("/v1/balance", { key: b.key })).status).toBe(200);
  });
});
