// A local DNS-over-HTTPS (JSON) server standing in for the public resolver in
// tests: production code talks to it through the same DohResolver.
import { createServer, type Server } from "node:http";

/** Test zone: names used by URL-safety tests and their addresses. */
export const TEST_ZONE: Record<string, { A?: string[]; AAAA?: string[] }> = {
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
};

export async function startDohServer(zone = TEST_ZONE): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://localhost");
    const name = (u.searchParams.get("name") ?? "").replace(/\.$/, "").toLowerCase();
    const type = u.searchParams.get("type") === "AAAA" ? "AAAA" : "A";
    const entry = zone[name];
    const answers = entry?.[type] ?? [];
    res.setHeader("Content-Type", "application/dns-json");
    res.end(
      JSON.stringify({
        Status: entry ? 0 : 3,
        Answer: answers.map((data) => ({ name, type: type === "A" ? 1 : 28, TTL: 60, data })),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/dns-query`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
