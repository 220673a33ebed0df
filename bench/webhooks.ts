// Webhook delivery benchmark against the local stack (`wrangler dev`, local
// queues): deliveries per second from the queue consumer to a Node receiver
// that answers 200 (verifying each signature with `stripe`), and the delay
// from emitting an event to its arrival, p50/p99.
//
//   npm run bench:webhooks -- [--endpoints 50] [--events 20] [--samples 20]
//
// Events are emitted through the operator route, as the job lifecycle would.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startLocalStack } from "../scripts/lib/local-stack";
import { OperatorClient } from "../scripts/lib/operator-client";
import { startWebhookReceiver, type WebhookReceiver } from "../test/support/webhook-receiver";

const { values: args } = parseArgs({
  options: {
    endpoints: { type: "string", default: "50" },
    events: { type: "string", default: "20" },
    samples: { type: "string", default: "20" },
  },
});
const ENDPOINTS = Number(args.endpoints);
const EVENTS = Number(args.events);
const SAMPLES = Number(args.samples);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function waitUntil(check: () => boolean, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Row {
  scenario: string;
  deliveries: number;
  verified: number;
  "deliveries/s": string;
  "delay p50 ms": number;
  "delay p99 ms": number;
  "delay max ms": number;
}

async function main() {
  const persistDir = mkdtempSync(path.join(tmpdir(), "hoops-bench-webhooks-"));
  const operatorToken = `op_bench_${randomBytes(16).toString("hex")}`;
  const receiver: WebhookReceiver = await startWebhookReceiver();
  const stack = await startLocalStack({ persistDir, operatorToken, mediaSigningSecret: randomBytes(32).toString("hex"), allowLoopbackUrls: true,
    onOutput: process.env.BENCH_VERBOSE ? (line) => console.log(`[worker] ${line}`) : undefined,
  });
  const ops = new OperatorClient(stack.baseUrl, operatorToken);
  try {
    const org = await ops.createOrganization("Webhook bench");
    const key = (await ops.createApiKey(org.id, "bench")).key as string;
    const register = async (inbox: string) => {
      const res = await fetch(`${stack.baseUrl}/v1/webhook_endpoints`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ url: `${receiver.url}/in/${inbox}` }),
      });
      const body = (await res.json()) as { id: string; secret: string };
      if (res.status !== 200) throw new Error(`registering an endpoint failed: ${JSON.stringify(body)}`);
      receiver.inbox(inbox).config = { secret: body.secret };
      return body;
    };
    const emitted = new Map<string, number>();
    const emit = async (n: number) => {
      const started = Date.now();
      const event = await ops.request("POST", `/admin/v1/organizations/${org.id}/events`, {
        type: "session.processed",
        object: { id: `sess_bench${n}`, object: "session", status: "processed", metadata: { n: String(n) } },
      });
      emitted.set(event.id, started);
    };
    const rows: Row[] = [];
    const summarise = (scenario: string, inboxes: string[], startedAt: number, rate: boolean) => {
      const got = inboxes.flatMap((i) => receiver.inbox(i).received);
      const delays = got.map((d) => d.receivedAtMs - emitted.get(d.eventId!)!).sort((a, b) => a - b);
      const last = Math.max(...got.map((d) => d.receivedAtMs));
      rows.push({
        scenario,
        deliveries: got.length,
        verified: got.filter((d) => d.verified).length,
        // Events sent one at a time measure delay only; a rate would just be 1 ÷ delay.
        "deliveries/s": rate ? (got.length / ((last - startedAt) / 1000)).toFixed(1) : "-",
        "delay p50 ms": percentile(delays, 50),
        "delay p99 ms": percentile(delays, 99),
        "delay max ms": delays.at(-1)!,
      });
    };

    // 1. One endpoint, one event at a time: the delay with an idle queue.
    await register("single");
    const idleStart = Date.now();
    for (let n = 0; n < SAMPLES; n++) {
      await emit(n);
      await waitUntil(() => receiver.inbox("single").received.length === n + 1, `event ${n}`);
    }
    summarise(`1 endpoint, ${SAMPLES} events one at a time`, ["single"], idleStart, false);

    // 2. Many endpoints, events emitted back to back: consumer throughput.
    const inboxes = Array.from({ length: ENDPOINTS }, (_, i) => `fan${i}`);
    for (const inbox of inboxes) await register(inbox);
    // The single endpoint stays registered too.
    const all = ["single", ...inboxes];
    const before = receiver.inbox("single").received.length;
    const loadStart = Date.now();
    await Promise.all(Array.from({ length: EVENTS }, (_, i) => emit(SAMPLES + i)));
    const expected = EVENTS * all.length;
    await waitUntil(() => all.reduce((n, i) => n + receiver.inbox(i).received.length, 0) - before >= expected, `${expected} deliveries`);
    receiver.inbox("single").received.splice(0, before);
    summarise(`${all.length} endpoints × ${EVENTS} events at once`, all, loadStart, true);

    console.log("\nWebhook delivery (local stack: wrangler dev, local queue, Node receiver answering 200)\n");
    console.table(rows);
    console.log(
      "\ndelay = emit request sent → delivery received; deliveries/s = deliveries ÷ (last receipt − first emit).\n" +
        "The local queue batches up to 20 messages and waits up to 1 s per batch (wrangler.toml), and each event takes two hops (fanout, deliver).",
    );
  } finally {
    await stack.stop();
    await receiver.close();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
