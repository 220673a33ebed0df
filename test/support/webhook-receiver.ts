// A local webhook receiver for tests and the benchmark. It runs in Node and
// checks every delivery with the official `stripe` package, an independent
// implementation of the signature scheme, exactly as a customer would:
// `stripe.webhooks.constructEvent(rawBody, header, secret, 300)`.
//
// Inboxes are paths: deliveries go to `POST /in/<inbox>`; a test configures
// an inbox (secret, answers) with `PUT /control/<inbox>` and reads what it got
// with `GET /control/<inbox>`.
import { createServer, type IncomingMessage, type Server } from "node:http";
import Stripe from "stripe";

export interface InboxConfig {
  /** Signing secret to verify with; deliveries are recorded unverified without one. */
  secret?: string;
  /** Statuses for the first deliveries, in order; afterwards `defaultStatus`. */
  statuses?: number[];
  defaultStatus?: number;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** `Location` header for 3xx answers. */
  location?: string;
}

export interface ReceivedDelivery {
  receivedAtMs: number;
  headers: Record<string, string>;
  body: string;
  /** True when stripe's constructEvent accepted the signature. */
  verified: boolean;
  verifyError: string | null;
  eventId: string | null;
  answeredStatus: number;
}

interface Inbox {
  config: InboxConfig;
  received: ReceivedDelivery[];
}

export interface WebhookReceiver {
  url: string;
  server: Server;
  /** In-process access (the benchmark runs in the same Node process). */
  inbox(name: string): Inbox;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function verify(body: string, header: string | undefined, secret: string | undefined): { verified: boolean; error: string | null } {
  if (!secret) return { verified: false, error: "no secret configured" };
  try {
    Stripe.webhooks.constructEvent(body, header ?? "", secret, 300);
    return { verified: true, error: null };
  } catch (err) {
    return { verified: false, error: (err as Error).message };
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const inboxes = new Map<string, Inbox>();
  const inbox = (name: string) => {
    let box = inboxes.get(name);
    if (!box) inboxes.set(name, (box = { config: {}, received: [] }));
    return box;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://receiver");
    const [, area, name] = url.pathname.split("/");
    const body = await readBody(req);
    if (area === "control" && name && req.method === "PUT") {
      inbox(name).config = JSON.parse(body || "{}") as InboxConfig;
      res.writeHead(204).end();
      return;
    }
    if (area === "control" && name && req.method === "GET") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ received: inbox(name).received }));
      return;
    }
    if (area === "in" && name && req.method === "POST") {
      const receivedAtMs = Date.now();
      const box = inbox(name);
      const { config } = box;
      const index = box.received.length;
      const status = config.statuses?.[index] ?? config.defaultStatus ?? 200;
      const check = verify(body, req.headers["service-signature"] as string | undefined, config.secret);
      let eventId: string | null = null;
      try {
        eventId = (JSON.parse(body) as { id?: string }).id ?? null;
      } catch {
        // recorded as is; the test asserts on it
      }
      box.received.push({
        receivedAtMs,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
        verified: check.verified,
        verifyError: check.error,
        eventId,
        answeredStatus: status,
      });
      if (config.delayMs) await new Promise((r) => setTimeout(r, config.delayMs));
      res.writeHead(status, config.location ? { Location: config.location } : {}).end("ok");
      return;
    }
    res.writeHead(404).end();
  });
  // Deliveries arrive concurrently; keep-alive sockets must not pile up.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    inbox,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
