// Sessions through a real `wrangler dev`: the operator CLI's auto-recharge
// commands, and a submit of a link served by a local video host, replayed
// with its Idempotency-Key and read back.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/local-stack";
import { startVideoServer } from "../support/video-server";
import { sendToStack, startTestStack, type TestStack } from "./stack";

const run = promisify(execFile);
let stack: TestStack;
let videos: Awaited<ReturnType<typeof startVideoServer>>;

beforeAll(async () => {
  [stack, videos] = await Promise.all([startTestStack(), startVideoServer()]);
});
afterAll(async () => {
  await stack?.destroy();
  await videos?.close();
});

async function ops(...args: string[]) {
  const { stdout } = await run(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/ops.ts"), ...args, "--url", stack.baseUrl, "--token", stack.operatorToken],
    { cwd: ROOT },
  );
  return stdout;
}

describe("sessions against the local stack", () => {
  it("sets and switches off auto-recharge with the operator CLI", async () => {
    const org = await stack.ops.createOrganization("recharge");
    const set = JSON.parse(
      await ops("auto-recharge:set", "--org", org.id, "--threshold-cents", "1000", "--amount-cents", "5000", "--customer", "cus_E2e", "--payment-method", "pm_E2e", "--json"),
    );
    expect(set).toMatchObject({ object: "auto_recharge", enabled: true, threshold_cents: 1000, amount_cents: 5000, payment_method_id: "pm_E2e" });
    expect(await ops("auto-recharge:disable", "--org", org.id)).toMatch(/Auto-recharge off/);
  });

  it("submits a link, replays it by Idempotency-Key and reads it back", async () => {
    const org = await stack.ops.createOrganization("submit");
    const key = (await stack.ops.createApiKey(org.id, "e2e")).key;
    await stack.ops.addCredits(org.id, { amount_cents: 5000 });
    const submit = () =>
      sendToStack(() =>
        fetch(`${stack.baseUrl}/v1/sessions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": "e2e-1" },
          body: JSON.stringify({ source: { url: `${videos.url}/video/1800000000.mp4` }, metadata: { game: "e2e" } }),
        }),
      );
    const first = await submit();
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Service-Cost-Cents")).toBe("250"); // 1,800 s at 1,000,000 bytes per second
    expect(first.headers.get("X-Service-Available-Cents")).toBe("4750");
    const session: any = await first.json();
    expect(session).toMatchObject({ status: "queued", source: { type: "url" }, metadata: { game: "e2e" } });

    const replay = await submit();
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await replay.json()) as any).id).toBe(session.id);

    const read = await fetch(`${stack.baseUrl}/v1/sessions/${session.id}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as any).id).toBe(session.id);
    const usage: any = await (await fetch(`${stack.baseUrl}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } })).json();
    expect(usage.data).toHaveLength(1);
    expect(usage.data[0]).toMatchObject({ session: session.id, held_cents: 250, estimated_seconds: 1800 });
  });
});
