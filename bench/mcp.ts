// The assistant tool server's overhead: the get_balance tool (an MCP tools/call over Streamable
// HTTP, which makes one in-process GET /v1/balance) against GET /v1/balance called directly, in
// the same `wrangler dev` run. Keys are spread round-robin so the 60/min limit is not hit.
import { drive, loadRow, printTable, runBench, withBenchOrganization } from "./lib";

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const toolCall = (id: number) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_balance", arguments: {} } });

runBench(() =>
  withBenchOrganization(Math.ceil((2 * TOTAL + 200) / 55), async (stack, keys) => {
    const mcp = (i: number) =>
      fetch(`${stack.baseUrl}/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${keys[i % keys.length]}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: toolCall(i),
      });
    // Warm up both paths (isolate start, key cache, rate-limit objects).
    for (let i = 0; i < keys.length; i++) await (await mcp(i)).arrayBuffer();

    const direct = await drive("GET /v1/balance", TOTAL, CONCURRENCY, (i) =>
      fetch(`${stack.baseUrl}/v1/balance`, { headers: { Authorization: `Bearer ${keys[(i + TOTAL) % keys.length]}` } }),
    );
    const viaTool = await drive("MCP tools/call get_balance", TOTAL, CONCURRENCY, mcp);
    const check = (await (await mcp(0)).json()) as { result?: { isError?: boolean } };
    if (!check.result || check.result.isError) throw new Error(`the tool call failed: ${JSON.stringify(check)}`);
    printTable([direct, viaTool].map((r) => loadRow(r, { "throughput vs direct": r.rps / direct.rps })));
  }),
);
