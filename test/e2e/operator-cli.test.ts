import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/local-stack";
import { sendToStack, startTestStack, type TestStack } from "./stack";

const run = promisify(execFile);
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.destroy();
});

async function ops(...args: string[]) {
  const { stdout } = await run(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/ops.ts"), ...args, "--url", stack.baseUrl, "--token", stack.operatorToken],
    { cwd: ROOT },
  );
  return stdout;
}

const balance = (key: string) => fetch(`${stack.baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${key}` } });

describe("operator CLI against the local stack", () => {
  it("creates an org, mints a key, adds credits, revokes the key", async () => {
    const org = JSON.parse(await ops("org:create", "--name", "CLI org", "--json"));
    expect(org.id).toMatch(/^org_/);
    const group = JSON.parse(await ops("group:create", "--org", org.id, "--name", "U12", "--json"));
    expect(group.id).toMatch(/^grp_/);
    const key = JSON.parse(await ops("key:create", "--org", org.id, "--name", "ci", "--json"));
    expect(key.key).toMatch(/^hk_stg_/);
    const human = await ops("credits:add", "--org", org.id, "--cents", "2500");
    expect(human).toMatch(/Added 2500 cents/);

    const res = await balance(key.key);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).available_cents).toBe(2500);

    expect(await ops("key:revoke", key.id)).toMatch(/Revoked/);
    const after = await balance(key.key);
    expect(after.status).toBe(401);
    expect(((await after.json()) as any).error.code).toBe("invalid_api_key");
  });

  it("creates a card top-up link; paying it through the local stand-in adds the amount exactly once", async () => {
    const org = JSON.parse(await ops("org:create", "--name", "Top-up org", "--json"));
    const key = JSON.parse(await ops("key:create", "--org", org.id, "--json"));
    await ops("credits:add", "--org", org.id, "--cents", "100");
    const human = await ops("top-up:create", "--org", org.id, "--cents", "4200");
    expect(human).toMatch(/Top-up link tul_\w+: 4200 cents/);
    const url = human.trim().split("\n").at(-1)!;
    expect(url).toMatch(new RegExp(`^${stack.baseUrl}/local-checkout/cs_local_\\w+$`));
    expect(((await (await balance(key.key)).json()) as any).available_cents).toBe(100);

    // The payer opens the page and presses Pay; the stand-in sends the Worker a signed confirmation.
    const page = await fetch(url, { headers: { Accept: "text/html" } });
    expect(await page.text()).toContain("Pay $42.00");
    const paid = await sendToStack(() => fetch(url, { method: "POST", headers: { Accept: "text/html" }, redirect: "manual" }));
    expect(paid.status).toBe(303);
    await paid.body?.cancel();
    expect(((await (await balance(key.key)).json()) as any).available_cents).toBe(4300);

    // Paying again sends nothing that grants: still 4300.
    const again = await sendToStack(() => fetch(url, { method: "POST" }));
    expect(await again.json()).toMatchObject({ already_paid: true });
    expect(((await (await balance(key.key)).json()) as any).available_cents).toBe(4300);
    const linkId = /Top-up link (tul_\w+)/.exec(human)![1];
    expect(await ops("top-up:get", linkId)).toMatch(/4200 cents .*, paid \(grant cg_\w+\)/);
  });

  it("mints and revokes runner tokens", async () => {
    const token = JSON.parse(await ops("runner-token:create", "--name", "gpu-1", "--json"));
    expect(token.token).toMatch(/^hr_/);
    expect(await ops("runner-token:revoke", token.id)).toMatch(/Revoked/);
  });

  it("fails clearly with a wrong operator token", async () => {
    await expect(
      run(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/ops.ts"), "org:create", "--name", "x", "--url", stack.baseUrl, "--token", "nope-nope-nope-nope"], { cwd: ROOT }),
    ).rejects.toThrow(/invalid_operator_token/);
  });
});

describe("OpenAPI documents served by the running Worker", () => {
  it("are valid OpenAPI 3.1 according to a real validator", async () => {
    for (const p of ["/v1/openapi.json", "/admin/v1/openapi.json", "/runner/v1/openapi.json"]) {
      const res = await fetch(`${stack.baseUrl}${p}`, { headers: { Authorization: `Bearer ${stack.operatorToken}` } });
      const doc = await res.json();
      const result = await new Validator().validate(doc as never);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });
});
