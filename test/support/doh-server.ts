// A local DNS-over-HTTPS (JSON) server standing in for the public resolver in
// tests: production code talks to it through the same DohResolver, in the
// Worker (DOH_URL) and in the runner (--doh-url).
//
// Names can be made to misbehave (`fault`), and the zone can be changed while
// a test runs — in process (`doh.zone`) or, from inside workerd, over HTTP:
// `PUT /control/zone/<name>` with a ZoneEntry as JSON. `GET /control/queries`
// lists the names asked for, in order.
import { createServer, type Server } from "node:http";

export interface ZoneEntry {
  A?: string[];
  AAAA?: string[];
  /**
   * `http_500`: the resolver answers HTTP 500; `servfail`: DNS status 2;
   * `drop`: the connection is closed without an answer; `slow`: the answer
   * comes after 6 s (the resolvers give up after 5 s).
   */
  fault?: "http_500" | "servfail" | "drop" | "slow";
}

/** Test zone: names used by URL-safety tests and their addresses. */
export const TEST_ZONE: Record<string, ZoneEntry> = {
  "public.example.test": { A: ["93.184.216.34"], AAAA: ["2606:2800:220:1:248:1893:25c8:1946"] },
  "cdn.veocdn.com": { A: ["93.184.216.35"] },
  "app.veo.co": { A: ["93.184.216.36"] },
  "private.example.test": { A: ["10.0.0.7"] },
  "mixed.example.test": { A: ["93.184.216.34", "192.168.1.20"] },
  "loopback.example.test": { A: ["127.0.0.1"] },
  "linklocal.example.test": { A: ["169.254.169.254"] },
  "cgnat.example.test": { A: ["100.64.1.1"] },
  "multicast.example.test": { A: ["224.0.0.251"] },
  "zero.example.test": { A: ["0.0.0.0"] },
  "ula.example.test": { AAAA: ["fd12:3456:789a::1"] },
  "mapped.example.test": { AAAA: ["::ffff:10.0.0.1"] },
  "v6loop.example.test": { AAAA: ["::1"] },
  "dns-down.example.test": { fault: "http_500" },
  "dns-servfail.example.test": { fault: "servfail" },
  "dns-drop.example.test": { fault: "drop" },
  "dns-slow.example.test": { fault: "slow" },
};

export const SLOW_ANSWER_MS = 6000;

export interface DohServer {
  url: string;
  server: Server;
  /** The live zone: change it to change the answers. */
  zone: Record<string, ZoneEntry>;
  /** Names asked for, lower-cased, in order (one per A/AAAA query). */
  queries: string[];
  close(): Promise<void>;
}

export async function startDohServer(zone: Record<string, ZoneEntry> = TEST_ZONE): Promise<DohServer> {
  const live: Record<string, ZoneEntry> = structuredClone(zone);
  const queries: string[] = [];
  const server = createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://localhost");
    const control = /^\/control\/zone\/([^/]+)$/.exec(u.pathname);
    if (control && req.method === "PUT") {
      let body = "";
      for await (const chunk of req) body += chunk;
      live[decodeURIComponent(control[1]).toLowerCase()] = JSON.parse(body || "{}") as ZoneEntry;
      return res.writeHead(204).end();
    }
    if (u.pathname === "/control/queries") return res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(queries));

    const name = (u.searchParams.get("name") ?? "").replace(/\.$/, "").toLowerCase();
    const type = u.searchParams.get("type") === "AAAA" ? "AAAA" : "A";
    queries.push(name);
    const entry = live[name];
    if (entry?.fault === "drop") return req.socket.destroy();
    if (entry?.fault === "http_500") return res.writeHead(500).end("resolver exploded");
    if (entry?.fault === "slow") await new Promise((r) => setTimeout(r, SLOW_ANSWER_MS));
    const answers = entry?.[type] ?? [];
    res.setHeader("Content-Type", "application/dns-json");
    res.end(
      JSON.stringify({
        Status: entry?.fault === "servfail" ? 2 : entry ? 0 : 3,
        Answer: answers.map((data) => ({ name, type: type === "A" ? 1 : 28, TTL: 60, data })),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/dns-query`,
    server,
    zone: live,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
