// Requests `wrangler dev`'s proxy drops before they reach the Worker (dev-proxy.ts says why), and
// the resend that gets them the Worker's answer. The drop is made on purpose here, without load: a
// proxy connection is left idle for most of the runtime's 5-second keep-alive, the runtime process
// is stopped (as a starved CPU would), a refused POST is sent, and the runtime is let go.
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { DEV_PROXY_DROP_MESSAGE, DEV_PROXY_MAX_SENDS, isDevProxyDrop, sendPastDevProxyDrops } from "./dev-proxy";
import { startTestStack, type TestStack } from "./stack";

/** What the proxy answers for a request it could not deliver (wrangler 4's ProxyWorker). */
const proxyDrop = () =>
  new Response(`${DEV_PROXY_DROP_MESSAGE} Please try sending the request again. Only GET or HEAD requests are retried automatically.`, {
    status: 503,
    headers: { "Retry-After": "0" },
  });
const envelope = (status: number, code: string) =>
  Response.json({ error: { type: "api_error", code, message: code } }, { status, headers: { "Request-Id": "req_test" } });

/** A `send` that answers `answers` in turn, and how many times it was called. */
function scripted(...answers: (() => Response)[]) {
  const calls = { n: 0 };
  const send = async () => answers[Math.min(calls.n++, answers.length - 1)]();
  return { send, calls };
}

describe("sendPastDevProxyDrops", () => {
  it("sends again while the proxy answers that it could not deliver, and returns the Worker's answer", async () => {
    const { send, calls } = scripted(proxyDrop, proxyDrop, () => envelope(401, "invalid_api_key"));
    const { res, dropped } = await sendPastDevProxyDrops(send);
    expect([res.status, res.headers.get("Request-Id"), dropped, calls.n]).toEqual([401, "req_test", 2, 3]);
  });

  it("never resends an answer of the Worker's, a 503 included", async () => {
    const { send, calls } = scripted(() => envelope(503, "dns_unavailable"));
    const { res, dropped } = await sendPastDevProxyDrops(send);
    expect([res.status, dropped, calls.n]).toEqual([503, 0, 1]);
    expect(await res.json()).toMatchObject({ error: { code: "dns_unavailable" } });
  });

  it("never resends another bare 503", async () => {
    const other = () => new Response("upstream unavailable", { status: 503 });
    expect(await isDevProxyDrop(other())).toBe(false);
    const { send, calls } = scripted(other);
    expect((await sendPastDevProxyDrops(send)).dropped).toBe(0);
    expect(calls.n).toBe(1);
  });

  it(`gives up after ${DEV_PROXY_MAX_SENDS} sends and returns the proxy's answer, its body unread`, async () => {
    const { send, calls } = scripted(proxyDrop);
    const { res, dropped } = await sendPastDevProxyDrops(send);
    expect([res.status, dropped, calls.n]).toEqual([503, DEV_PROXY_MAX_SENDS - 1, DEV_PROXY_MAX_SENDS]);
    expect(await res.text()).toContain(DEV_PROXY_DROP_MESSAGE);
  });
});

/** The pid of the workerd that runs the Worker: the stack's workerd not listening on its public port. */
function runtimePid(stack: TestStack): number {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const descendants = new Set([stack.process.pid!]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) if (descendants.has(row.ppid) && !descendants.has(row.pid)) (descendants.add(row.pid), (grew = true));
  }
  const runtimes = rows.filter((r) => descendants.has(r.pid) && /\/workerd serve /.test(r.args) && !r.args.includes(`entry=127.0.0.1:${stack.port} `));
  if (runtimes.length !== 1) throw new Error(`expected one workerd running the Worker, found ${runtimes.length}`);
  return runtimes[0].pid;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a request wrangler dev's proxy drops", () => {
  let stack: TestStack | undefined;
  let stopped: number | undefined;
  afterAll(async () => {
    if (stopped) process.kill(stopped, "SIGCONT");
    await stack?.destroy();
  });

  it("comes back as the proxy's bare 503 without a Request-Id; sent again, it gets the Worker's envelope", async () => {
    stack = await startTestStack();
    const runtime = runtimePid(stack);
    const badKey = () =>
      fetch(`${stack!.baseUrl}/v1/sessions`, {
        method: "POST",
        headers: { Authorization: `Bearer hk_stg_${"x".repeat(32)}`, "Content-Type": "application/json" },
        body: JSON.stringify({ source: { url: "https://example.com/game.mp4" } }),
      });

    // The timing is the runtime's 5 s and the proxy's 5 s: a few tries, in case a slow machine
    // stretches the idle time past the proxy's own limit (then it opens a new connection).
    const firstAnswers: string[] = [];
    let delivered: Awaited<ReturnType<typeof sendPastDevProxyDrops>> | undefined;
    for (let attempt = 0; attempt < 3 && !delivered?.dropped; attempt++) {
      const warm = await badKey();
      await warm.text();
      expect(warm.status).toBe(401);
      await sleep(4_600);
      process.kill(runtime, "SIGSTOP");
      stopped = runtime;
      let sends = 0;
      const pending = sendPastDevProxyDrops(async () => {
        const res = await badKey();
        if (sends++ === 0) firstAnswers.push(`${res.status} ${res.headers.get("Request-Id") ?? "without Request-Id"} ${(await res.clone().text()).slice(0, 34)}`);
        return res;
      });
      await sleep(1_500);
      process.kill(runtime, "SIGCONT");
      stopped = undefined;
      delivered = await pending;
    }
    // The send made while the runtime was stopped came back as the proxy's answer, not the Worker's…
    expect(delivered!.dropped, `first answers: ${firstAnswers.join("; ")}`).toBeGreaterThan(0);
    expect(firstAnswers.at(-1)).toBe(`503 without Request-Id ${DEV_PROXY_DROP_MESSAGE}`);
    // …and sent again, it got the Worker's refusal in the envelope.
    const { res } = delivered!;
    expect(res.status).toBe(401);
    expect(res.headers.get("Request-Id")).toMatch(/^req_/);
    expect(await res.json()).toMatchObject({ error: { type: "authentication_error", code: "invalid_api_key" } });
  });
});
