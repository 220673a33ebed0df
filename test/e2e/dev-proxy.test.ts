// Requests `wrangler dev`'s proxy drops before they reach the Worker (dev-proxy.ts says why), and
// the resend that gets them the Worker's answer. The drop is made on purpose here, without load: a
// connection is left idle for most of the receiving workerd's 5-second keep-alive, that process is
// stopped (as a starved CPU would), a refused POST is sent, and the process is let go.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_PROXY_DROP_MESSAGE, DEV_PROXY_MAX_SENDS, isDevProxyDrop, sendPastDevProxyDrops, type Delivered } from "./dev-proxy";
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

  it("sends again when the connection closed before any answer (ECONNRESET, other side closed)", async () => {
    const closed = (code: string) => () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) });
    };
    const { send, calls } = scripted(closed("ECONNRESET"), closed("UND_ERR_SOCKET"), () => envelope(409, "upload_offset_mismatch"));
    const { res, dropped } = await sendPastDevProxyDrops(send);
    expect([res.status, dropped, calls.n]).toEqual([409, 2, 3]);
  });

  it("never resends after another failure (nothing listening, a bad URL)", async () => {
    const refused = scripted(() => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    });
    await expect(sendPastDevProxyDrops(refused.send)).rejects.toThrow("fetch failed");
    expect(refused.calls.n).toBe(1);
  });

  it(`gives up after ${DEV_PROXY_MAX_SENDS} sends and returns the proxy's answer, its body unread`, async () => {
    const { send, calls } = scripted(proxyDrop);
    const { res, dropped } = await sendPastDevProxyDrops(send);
    expect([res.status, dropped, calls.n]).toEqual([503, DEV_PROXY_MAX_SENDS - 1, DEV_PROXY_MAX_SENDS]);
    expect(await res.text()).toContain(DEV_PROXY_DROP_MESSAGE);
  });
});

/** The stack's two workerd processes: the proxy on its public port, and the runtime of the Worker. */
function workerdPids(stack: TestStack): { proxy: number; runtime: number } {
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
  const workerds = rows.filter((r) => descendants.has(r.pid) && /\/workerd serve /.test(r.args));
  const onPublicPort = (r: (typeof rows)[number]) => r.args.includes(`entry=127.0.0.1:${stack.port} `);
  const proxy = workerds.filter(onPublicPort);
  const runtime = workerds.filter((r) => !onPublicPort(r));
  if (proxy.length !== 1 || runtime.length !== 1) throw new Error(`expected two workerd processes (proxy, runtime), found ${workerds.length}`);
  return { proxy: proxy[0].pid, runtime: runtime[0].pid };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a request dropped on its way through wrangler dev", () => {
  let stack: TestStack;
  let pids: { proxy: number; runtime: number };
  let stopped: number | undefined;
  beforeAll(async () => {
    stack = await startTestStack();
    pids = workerdPids(stack);
  });
  afterAll(async () => {
    if (stopped) process.kill(stopped, "SIGCONT");
    await stack?.destroy();
  });

  const badKey = () =>
    fetch(`${stack.baseUrl}/v1/sessions`, {
      method: "POST",
      headers: { Authorization: `Bearer hk_stg_${"x".repeat(32)}`, "Content-Type": "application/json" },
      body: JSON.stringify({ source: { url: "https://example.com/game.mp4" } }),
    });

  /**
   * Leaves the connections in front of `pid` idle for `idleMs`, stops `pid` (as a starved CPU
   * would), sends the refusal through sendPastDevProxyDrops, and lets `pid` go 1.5 s later. Tried up
   * to three times, in case a slow machine moves the idle time past the client's own limit (then it
   * opens a new connection and nothing is dropped). Returns what the first send got each time, and
   * what was delivered in the end.
   */
  async function sendWhileStopped(pid: number, idleMs: number) {
    const firstSends: string[] = [];
    let delivered: Delivered | undefined;
    for (let attempt = 0; attempt < 3 && !delivered?.dropped; attempt++) {
      const warm = await badKey();
      await warm.text();
      expect(warm.status).toBe(401);
      await sleep(idleMs);
      process.kill(pid, "SIGSTOP");
      stopped = pid;
      let sends = 0;
      const pending = sendPastDevProxyDrops(async () => {
        const first = sends++ === 0;
        try {
          const res = await badKey();
          if (first) firstSends.push(`${res.status} ${res.headers.get("Request-Id") ? "with" : "without"} Request-Id: ${(await res.clone().text()).slice(0, 34)}`);
          return res;
        } catch (err) {
          if (first) firstSends.push(`${(err as Error).message} (${(err as { cause?: { code?: string } }).cause?.code})`);
          throw err;
        }
      });
      await sleep(1_500);
      process.kill(pid, "SIGCONT");
      stopped = undefined;
      delivered = await pending;
    }
    return { firstSends, delivered: delivered! };
  }

  async function expectWorkersRefusal(res: Response) {
    expect(res.status).toBe(401);
    expect(res.headers.get("Request-Id")).toMatch(/^req_/);
    expect(await res.json()).toMatchObject({ error: { type: "authentication_error", code: "invalid_api_key" } });
  }

  it("between proxy and runtime: the proxy's bare 503 without a Request-Id; sent again, the Worker's envelope", async () => {
    // The proxy reuses a connection idle under 5 s; the runtime closes one idle for 5 s.
    const { firstSends, delivered } = await sendWhileStopped(pids.runtime, 4_600);
    expect(delivered.dropped, `first sends: ${firstSends.join("; ")}`).toBeGreaterThan(0);
    expect(firstSends.at(-1)).toBe(`503 without Request-Id: ${DEV_PROXY_DROP_MESSAGE}`);
    await expectWorkersRefusal(delivered.res);
  });

  it("between client and proxy: a connection closed before any answer; sent again, the Worker's envelope", async () => {
    // Node's fetch reuses a connection idle under 4 s; the proxy closes one idle for 5 s.
    const { firstSends, delivered } = await sendWhileStopped(pids.proxy, 3_600);
    expect(delivered.dropped, `first sends: ${firstSends.join("; ")}`).toBeGreaterThan(0);
    expect(firstSends.at(-1)).toMatch(/^fetch failed \((ECONNRESET|UND_ERR_SOCKET|EPIPE)\)$/);
    await expectWorkersRefusal(delivered.res);
  });
});
