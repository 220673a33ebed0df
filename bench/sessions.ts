// Session reads and submits, in one `wrangler dev` run:
// - GET /v1/sessions/{id} for a processed session with 100 shots, 100
//   highlights and 30 players (built by services/session-object.ts: one D1
//   round trip for the items, ~1,000 media URLs signed), against GET
//   /v1/balance (the same auth + rate-limit path, two aggregate queries);
// - POST /v1/sessions with a link (URL checks through the DoH resolver, a HEAD
//   to a local video server, the conditional D1 batch, the queue send).
// The session's rows are written straight into the local D1 with
// `wrangler d1 execute`, as the runner would leave them.
//
// 60 requests per minute per key is enforced, so requests are spread over
// enough keys, round-robin.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { OperatorClient } from "../scripts/lib/operator-client";
import { ROOT, startLocalStack, wranglerEnv } from "../scripts/lib/local-stack";
import { drive, loadRow, printTable, type LoadResult } from "./lib";

const READS = Number(process.env.BENCH_REQUESTS ?? 600);
const SUBMITS = Number(process.env.BENCH_SUBMITS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PER_KEY = 55;

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const q = (v: unknown) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

function seedSql(orgId: string, groupId: string, sessionId: string): string {
  const now = Math.floor(Date.now() / 1000);
  const stats = JSON.stringify({ points: 8, fg_2pt_att: 5, fg_2pt_make: 4, fg_3pt_att: 1, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 2, rebound: 3 });
  const lines = [
    `INSERT INTO sessions (id, org_id, group_id, status, source_type, source_url, metadata, options, duration_seconds, cost_cents, run_version, video, artifacts, totals, shot_count, highlight_count, player_count, created, updated, completed_at) VALUES (${[
      sessionId, orgId, groupId, "processed", "url", "https://example.com/game.mp4", JSON.stringify({ game: "bench" }),
      JSON.stringify({ session_type: "5v5", court_type: "full", camera_setup: "fixed", has_jerseys: true, jerseys: "auto" }), 3000, 417, 1,
      JSON.stringify({ url: `sessions/${sessionId}/video.mp4`, preview_url: `sessions/${sessionId}/preview.jpg`, "1080p": `sessions/${sessionId}/1080p.mp4`, "720p": `sessions/${sessionId}/720p.mp4`, "360p": `sessions/${sessionId}/360p.mp4`, width: 1920, height: 1080, fps: 30 }),
      JSON.stringify({ actions: `sessions/${sessionId}/actions.jsonl`, balls: `sessions/${sessionId}/balls.jsonl`, hoops: `sessions/${sessionId}/hoops.jsonl`, clusters: `sessions/${sessionId}/clusters.jsonl` }),
      stats, 100, 100, 30, now, now, now,
    ].map(q).join(", ")});`,
  ];
  const players = Array.from({ length: 30 }, () => id("plr"));
  const shots = Array.from({ length: 100 }, () => id("shot"));
  const clips = Array.from({ length: 100 }, () => id("hl"));
  players.forEach((p, i) =>
    lines.push(`INSERT INTO players (id, session_id, org_id, position, name, jersey, user_id, team_id, metadata, stats) VALUES (${[p, sessionId, orgId, i, `Player ${i}`, String(i), null, i % 2, "{}", stats].map(q).join(", ")});`),
  );
  shots.forEach((s, i) =>
    lines.push(
      `INSERT INTO shots (id, session_id, org_id, position, shot_index, start_seconds, end_seconds, made, points, type, is_three_point, is_free_throw, is_fouled, location, excitement_score, scorer_id, assister_id, rebounder_id, highlight_id) VALUES (${[
        s, sessionId, orgId, i, i, i * 25, i * 25 + 4, i % 2, i % 2 ? 2 : 0, "fieldgoal", 0, 0, 0,
        JSON.stringify({ shot_image_normed: [0.4, 0.6], shot_world_normed: [0.3, 0.2], hoop_image_normed: [0.5, 0.1] }), 0.7, players[i % 30], players[(i + 1) % 30], null, clips[i],
      ].map(q).join(", ")});`,
    ),
  );
  const renditions = ["default", "horizontal", "1080p", "720p", "480p", "360p", "240p", "144p"];
  clips.forEach((h, i) =>
    lines.push(
      `INSERT INTO highlights (id, session_id, org_id, position, shot_id, shot_index, length_seconds, is_lowlight, is_manual, player_id, video, preview, created) VALUES (${[
        h, sessionId, orgId, i, shots[i], i, 8, 0, 0, players[i % 30],
        JSON.stringify(Object.fromEntries(renditions.map((r) => [r, `sessions/${sessionId}/highlights/${i}/${r}.mp4`]))),
        JSON.stringify({ default: `sessions/${sessionId}/highlights/${i}/preview.jpg`, horizontal: `sessions/${sessionId}/highlights/${i}/preview-h.jpg` }), now,
      ].map(q).join(", ")});`,
    ),
  );
  return lines.join("\n");
}

/** Answers HEAD and ranged GET like an MP4 host, so submits and job preparation find a video. */
async function startVideoHost() {
  const server = createServer((req, res) => {
    res.setHeader("Content-Type", "video/mp4");
    if (req.method === "HEAD") {
      res.setHeader("Content-Length", "1800000000");
      return res.end();
    }
    res.statusCode = 206;
    res.setHeader("Content-Range", "bytes 0-0/1800000000");
    res.end("\0");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((r) => server.close(r)) };
}

async function main() {
  const persistDir = mkdtempSync(path.join(tmpdir(), "hoops-bench-"));
  const operatorToken = `op_bench_${randomBytes(16).toString("hex")}`;
  const host = await startVideoHost();
  const stack = await startLocalStack({ persistDir, operatorToken, mediaSigningSecret: randomBytes(32).toString("hex"), allowLoopbackUrls: true });
  try {
    const ops = new OperatorClient(stack.baseUrl, operatorToken);
    const org = await ops.createOrganization("bench");
    await ops.addCredits(org.id, { amount_cents: 100_000_000 });
    const keyCount = Math.ceil((2 * READS + SUBMITS) / PER_KEY) + 1;
    const keys: string[] = [];
    for (let i = 0; i < keyCount; i++) keys.push((await ops.createApiKey(org.id, `bench-${i}`)).key);
    let used = 0;
    const nextKey = () => keys[Math.floor(used++ / PER_KEY) % keys.length];

    const sessionId = id("sess");
    const sqlFile = path.join(persistDir, "seed.sql");
    writeFileSync(sqlFile, seedSql(org.id, org.default_group, sessionId));
    const seeded = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/wrangler/bin/wrangler.js"), "d1", "execute", "DB", "--local", "--env", "staging", "--persist-to", persistDir, "--file", sqlFile],
      { cwd: ROOT, env: wranglerEnv(), encoding: "utf8" },
    );
    if (seeded.status !== 0) throw new Error(`seeding failed:\n${seeded.stdout}\n${seeded.stderr}`);

    const auth = () => ({ Authorization: `Bearer ${nextKey()}` });
    const check = await fetch(`${stack.baseUrl}/v1/sessions/${sessionId}`, { headers: auth() });
    const body: any = await check.json();
    if (!check.ok || body.shots.data.length !== 100 || body.highlights.data.length !== 100 || body.players.data.length !== 30) {
      throw new Error(`seeded session reads wrong: ${check.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    const sessionBytes = JSON.stringify(body).length;
    // Warm-up of both read paths.
    for (let i = 0; i < 10; i++) {
      await (await fetch(`${stack.baseUrl}/v1/balance`, { headers: auth() })).arrayBuffer();
      await (await fetch(`${stack.baseUrl}/v1/sessions/${sessionId}`, { headers: auth() })).arrayBuffer();
    }

    const balance = await drive("GET /v1/balance", READS, CONCURRENCY, () => fetch(`${stack.baseUrl}/v1/balance`, { headers: auth() }));
    const session = await drive("GET /v1/sessions/{id} (100/100/30)", READS, CONCURRENCY, () =>
      fetch(`${stack.baseUrl}/v1/sessions/${sessionId}`, { headers: auth() }),
    );
    const submit = await drive("POST /v1/sessions (link)", SUBMITS, CONCURRENCY, (i) =>
      fetch(`${stack.baseUrl}/v1/sessions`, {
        method: "POST",
        headers: { ...auth(), "Content-Type": "application/json" },
        body: JSON.stringify({ source: { url: `${host.url}/game-${i}.mp4` }, metadata: { run: String(i) } }),
      }),
    );
    const row = (r: LoadResult) => loadRow(r, { "p50 vs balance": r.p50 / balance.p50, "throughput vs balance": r.rps / balance.rps });
    console.log(`concurrency ${CONCURRENCY}; session object ${sessionBytes} bytes of JSON`);
    printTable([balance, session, submit].map(row));
  } finally {
    await stack.stop();
    await host.close();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
