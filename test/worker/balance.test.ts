import { describe, expect, it } from "vitest";
import { admin, call, createOrg } from "./helpers";

describe("GET /v1/balance", () => {
  it("sums unexpired grants, ignores expired ones and reports the soonest expiry", async () => {
    const org = await createOrg();
    const now = Math.floor(Date.now() / 1000);
    await admin("POST", `/admin/v1/organizations/${org.orgId}/credits`, { amount_cents: 1000, expires_at: now + 3600 });
    await admin("POST", `/admin/v1/organizations/${org.orgId}/credits`, { amount_cents: 2500 });
    await admin("POST", `/admin/v1/organizations/${org.orgId}/credits`, { amount_cents: 9999, expires_at: now - 10 });
    const res = await call("/v1/balance", { key: org.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      object: "balance",
      credit_cents: 3500,
      held_cents: 0,
      available_cents: 3500,
      rate_cents_per_hour: 500,
      soonest_expiry: now + 3600,
    });
  });

  it("defaults a grant's expiry to one year after purchase", async () => {
    const org = await createOrg();
    const grant = await admin("POST", `/admin/v1/organizations/${org.orgId}/credits`, { amount_cents: 100 });
    expect(grant.expires_at - grant.created).toBe(365 * 24 * 3600);
  });

  it("is zero with null expiry for an organization without credit", async () => {
    const org = await createOrg();
    const body: any = await (await call("/v1/balance", { key: org.key })).json();
    expect(body).toMatchObject({ credit_cents: 0, held_cents: 0, available_cents: 0, soonest_expiry: null });
  });

  it("only ever shows the caller's own organization", async () => {
    const a = await createOrg({ creditsCents: 700 });
    const b = await createOrg({ creditsCents: 300 });
    expect(((await (await call("/v1/balance", { key: a.key })).json()) as any).credit_cents).toBe(700);
    expect(((await (await call("/v1/balance", { key: b.key })).json()) as any).credit_cents).toBe(300);
  });
});
