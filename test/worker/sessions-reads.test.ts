import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../drizzle/schema";
import { verifyMediaUrl } from "../../worker/services/media-urls";
import { buildSessionObjects } from "../../worker/services/session-object";
import { SessionSchema } from "../../worker/schemas/sessions";
import { call, createOrg, expectError, type TestOrg } from "./helpers";
import { db, nowSeconds, seedProcessedSession, videoUrl } from "./session-fixtures";

const get = (org: TestOrg, path: string) => call(path, { key: org.key });

describe("GET /v1/sessions/{id}", () => {
  it("embeds the first 100 shots, highlights and players with has_more, total_count and url; media as signed URLs", async () => {
    const org = await createOrg();
    const seeded = await seedProcessedSession(org, { shots: 120, highlights: 101, players: 30 });
    const res = await get(org, `/v1/sessions/${seeded.sessionId}`);
    expect(res.status).toBe(200);
    const s: any = await res.json();
    expect(SessionSchema.safeParse(s).success).toBe(true);
    expect(s.status).toBe("processed");
    expect(s.shots).toMatchObject({ has_more: true, total_count: 120, url: `/v1/sessions/${seeded.sessionId}/shots` });
    expect(s.shots.data).toHaveLength(100);
    expect(s.shots.data.map((x: any) => x.id)).toEqual(seeded.shotIds.slice(0, 100));
    expect(s.highlights).toMatchObject({ has_more: true, total_count: 101 });
    expect(s.highlights.data).toHaveLength(100);
    expect(s.players).toMatchObject({ has_more: false, total_count: 30 });
    expect(s.players.data).toHaveLength(30);

    // Cross-links are ids that match the embedded players.
    const playerIds = new Set(s.players.data.map((p: any) => p.id));
    expect(playerIds.has(s.shots.data[0].players.scorer)).toBe(true);
    expect(s.shots.data[0].highlight).toBe(seeded.highlightIds[0]);
    expect(s.players.data[0]).toMatchObject({ name: "Ada", jersey: "0", user_id: "u_ada", team_id: 0, metadata: { crm: "42" } });
    expect(s.totals.points).toBe(40);
    expect(s).toMatchObject({ duration_seconds: 3000, cost_cents: 417, run_version: 3 });

    // R2 keys became signed URLs of this Worker; missing renditions stay null.
    const clip = s.highlights.data[0];
    const signed = new URL(clip.video.default);
    expect(signed.pathname).toBe(`/media/sessions/${seeded.sessionId}/hl/0.mp4`);
    expect(await verifyMediaUrl(env as never, `sessions/${seeded.sessionId}/hl/0.mp4`, signed.searchParams, nowSeconds())).toMatchObject({ valid: true });
    expect(clip.video["1080p"]).toBeNull();
    expect(clip.preview.horizontal).toBeNull();
    expect(s.video).toMatchObject({ width: 1920, height: 1080, fps: 29.97, "1080p": null });
    expect(s.video.url).toMatch(/\/media\/sessions\/.+\/video\.mp4\?/);
    expect(s.artifacts.actions).toMatch(/actions\.jsonl/);
    expect(s.artifacts.balls).toBeNull();
  });

  it("answers 404 resource_missing for another organization's session and for unknown ids", async () => {
    const owner = await createOrg();
    const other = await createOrg();
    const { sessionId } = await seedProcessedSession(owner, { shots: 1, highlights: 1, players: 1 });
    await expectError(await get(other, `/v1/sessions/${sessionId}`), 404, "resource_missing", "id");
    await expectError(await get(other, `/v1/sessions/${sessionId}/shots`), 404, "resource_missing", "id");
    await expectError(await get(other, `/v1/sessions/${sessionId}/highlights`), 404, "resource_missing", "id");
    await expectError(await get(other, `/v1/sessions/${sessionId}/players`), 404, "resource_missing", "id");
    await expectError(await get(owner, "/v1/sessions/sess_nope"), 404, "resource_missing", "id");
  });

  it("shows failed sessions with their error and empty lists, whatever rows exist", async () => {
    const org = await createOrg();
    const { sessionId } = await seedProcessedSession(org, { shots: 3, highlights: 3, players: 2 });
    await db.update(schema.sessions).set({ status: "failed", errorCode: "no_hoops", errorMessage: "No hoop was found." }).where(eq(schema.sessions.id, sessionId));
    const s: any = await (await get(org, `/v1/sessions/${sessionId}`)).json();
    expect(s.error).toEqual({ code: "no_hoops", message: "No hoop was found." });
    expect(s.shots).toMatchObject({ data: [], total_count: 0 });
    expect(s.video.url).toBeNull();
    expect(s.artifacts.actions).toBeNull();
  });
});

describe("buildSessionObjects", () => {
  it("builds many sessions with one round trip of three item queries, not a query per item", async () => {
    const org = await createOrg();
    const a = await seedProcessedSession(org, { shots: 100, highlights: 100, players: 30 });
    const b = await seedProcessedSession(org, { shots: 2, highlights: 0, players: 1 });
    const rows = await db.select().from(schema.sessions).where(eq(schema.sessions.orgId, org.orgId));
    // Count what reaches D1 itself: round trips (batch or single statement) and statements.
    let roundTrips = 0;
    let statements = 0;
    const d1 = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "batch") return (stmts: D1PreparedStatement[]) => ((roundTrips += 1), target.batch(stmts));
        if (prop === "prepare") {
          return (query: string) => {
            statements += 1;
            const stmt = target.prepare(query);
            return new Proxy(stmt, {
              get(s, p) {
                const v = Reflect.get(s, p, s);
                if (["all", "first", "run", "raw"].includes(String(p))) return (...args: unknown[]) => ((roundTrips += 1), v.apply(s, args));
                return typeof v === "function" ? v.bind(s) : v;
              },
            });
          };
        }
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const counting = drizzle(d1, { schema });
    let signed = 0;
    const objects = await buildSessionObjects(counting, { signUrl: async (key) => { signed += 1; return `https://signed.test/${key}`; } }, rows);
    expect(roundTrips).toBe(1);
    expect(statements).toBe(3);
    const byId = new Map(objects.map((o) => [o.id, o]));
    expect(byId.get(a.sessionId)!.shots.data).toHaveLength(100);
    expect(byId.get(b.sessionId)!.shots).toMatchObject({ total_count: 2, has_more: false });
    expect(byId.get(b.sessionId)!.highlights.data).toHaveLength(0);
    expect(signed).toBeGreaterThan(200);
  });
});

describe("GET /v1/sessions", () => {
  it("lists newest first with cursor paging, total_count and the status and group filters", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const base = nowSeconds() - 1000;
    const seeded = [];
    for (let i = 0; i < 5; i++) seeded.push((await seedProcessedSession(org, { shots: 1, highlights: 0, players: 0 }, { created: base + i })).sessionId);
    const queued: any = await (await call("/v1/sessions", { method: "POST", key: org.key, json: { source: { url: videoUrl(1, "list") }, duration_seconds: 60 } })).json();

    const page1: any = await (await get(org, "/v1/sessions?limit=4")).json();
    expect(page1.object).toBe("list");
    expect(page1.total_count).toBe(6);
    expect(page1.has_more).toBe(true);
    expect(page1.data.map((s: any) => s.id)).toEqual([queued.id, seeded[4], seeded[3], seeded[2]]);
    expect(page1.data[1].shots.data).toHaveLength(1);
    const page2: any = await (await get(org, `/v1/sessions?limit=4&starting_after=${page1.data[3].id}`)).json();
    expect(page2.data.map((s: any) => s.id)).toEqual([seeded[1], seeded[0]]);
    expect(page2.has_more).toBe(false);

    const processed: any = await (await get(org, "/v1/sessions?status=processed&limit=100")).json();
    expect(processed.total_count).toBe(5);
    expect(processed.data.every((s: any) => s.status === "processed")).toBe(true);
    const inDefault: any = await (await get(org, `/v1/sessions?group=${org.groupId}`)).json();
    expect(inDefault.total_count).toBe(6);
    const elsewhere: any = await (await get(org, "/v1/sessions?group=grp_other")).json();
    expect(elsewhere.total_count).toBe(0);
  });

  it("defaults to 20, bounds limit to 1..100 and never shows another organization's sessions", async () => {
    const org = await createOrg();
    const other = await createOrg();
    for (let i = 0; i < 21; i++) await seedProcessedSession(org, { shots: 0, highlights: 0, players: 0 });
    const page: any = await (await get(org, "/v1/sessions")).json();
    expect(page.data).toHaveLength(20);
    expect(page.has_more).toBe(true);
    await expectError(await get(org, "/v1/sessions?limit=0"), 400, "parameter_invalid", "limit");
    await expectError(await get(org, "/v1/sessions?limit=101"), 400, "parameter_invalid", "limit");
    await expectError(await get(org, "/v1/sessions?status=done"), 400, "parameter_invalid", "status");
    expect(((await (await get(other, "/v1/sessions")).json()) as any).total_count).toBe(0);
    await expectError(await get(other, `/v1/sessions?starting_after=${page.data[0].id}`), 400, "parameter_invalid", "starting_after");
  });
});

describe("GET /v1/sessions/{id}/highlights|shots|players", () => {
  it("pages the full set by offset (default limit 100, at most 250) with the list url", async () => {
    const org = await createOrg();
    const seeded = await seedProcessedSession(org, { shots: 260, highlights: 5, players: 12 });
    const first: any = await (await get(org, `/v1/sessions/${seeded.sessionId}/shots`)).json();
    expect(first).toMatchObject({ object: "list", has_more: true, total_count: 260, url: `/v1/sessions/${seeded.sessionId}/shots` });
    expect(first.data).toHaveLength(100);
    const tail: any = await (await get(org, `/v1/sessions/${seeded.sessionId}/shots?offset=250&limit=250`)).json();
    expect(tail.data.map((s: any) => s.id)).toEqual(seeded.shotIds.slice(250));
    expect(tail.has_more).toBe(false);
    const mid: any = await (await get(org, `/v1/sessions/${seeded.sessionId}/shots?offset=100&limit=2`)).json();
    expect(mid.data.map((s: any) => s.id)).toEqual(seeded.shotIds.slice(100, 102));

    const highlights: any = await (await get(org, `/v1/sessions/${seeded.sessionId}/highlights?limit=2&offset=1`)).json();
    expect(highlights.data.map((h: any) => h.id)).toEqual(seeded.highlightIds.slice(1, 3));
    expect(highlights.data[0].video.default).toMatch(/^https:\/\/api\.test\/media\//);
    const players: any = await (await get(org, `/v1/sessions/${seeded.sessionId}/players?limit=250`)).json();
    expect(players).toMatchObject({ total_count: 12, has_more: false, url: `/v1/sessions/${seeded.sessionId}/players` });

    await expectError(await get(org, `/v1/sessions/${seeded.sessionId}/shots?limit=251`), 400, "parameter_invalid", "limit");
    await expectError(await get(org, `/v1/sessions/${seeded.sessionId}/shots?offset=-1`), 400, "parameter_invalid", "offset");
  });

  it("lists nothing for a session that is not processed", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const queued: any = await (await call("/v1/sessions", { method: "POST", key: org.key, json: { source: { url: videoUrl(1, "empty") }, duration_seconds: 60 } })).json();
    const shots: any = await (await get(org, `/v1/sessions/${queued.id}/shots`)).json();
    expect(shots).toEqual({ object: "list", data: [], has_more: false, total_count: 0, url: `/v1/sessions/${queued.id}/shots` });
  });
});

describe("OpenAPI document", () => {
  it("names the session schemas as components and lists every session and usage route", async () => {
    const doc: any = await (await call("/v1/openapi.json")).json();
    for (const name of ["Session", "Shot", "Highlight", "Player", "BoxScore", "SessionVideo", "HighlightList", "ShotList", "PlayerList", "SessionList", "SubmitSession", "SubmitOptions", "Roster", "Metadata", "UsageEvent", "UsageEventList"]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    for (const path of ["/v1/sessions", "/v1/sessions/{id}", "/v1/sessions/{id}/highlights", "/v1/sessions/{id}/shots", "/v1/sessions/{id}/players", "/v1/usage"]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths["/v1/sessions"].post.responses["200"].headers["X-Service-Cost-Cents"]).toBeDefined();
  });
});
