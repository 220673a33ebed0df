// Rows for session tests, written straight to D1: uploads in any state and
// processed sessions with results (as the runner would leave them).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { inject } from "vitest";
import * as schema from "../../drizzle/schema";
import { newId } from "../../worker/ids";
import type { TestOrg } from "./helpers";

export const db = drizzle(env.DB, { schema });
export const VIDEOS = inject("videoServerUrl");
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A link to the local video server that HEADs as an MP4 of `bytes` bytes. */
export const videoUrl = (bytes = 1_000_000, tag = "") => `${VIDEOS}/video/${bytes}.mp4${tag ? `?v=${tag}` : ""}`;

export async function insertUpload(org: TestOrg, opts: { status?: "pending" | "complete" | "expired" | "deleted"; size?: number } = {}) {
  const id = newId("up");
  const now = nowSeconds();
  await db.insert(schema.uploads).values({
    id,
    orgId: org.orgId,
    size: opts.size ?? 50_000_000,
    contentType: "video/mp4",
    status: opts.status ?? "complete",
    r2Key: `uploads/${id}`,
    expiresAt: now + 604800,
    completedAt: opts.status === "complete" || opts.status === undefined ? now : null,
  });
  return id;
}

const stats = (points: number) => ({ points, fg_2pt_att: 3, fg_2pt_make: 2, fg_3pt_att: 1, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 1, rebound: 2 });

/** A processed session with `counts` shots, highlights (one per shot, up to the count) and players. */
export async function seedProcessedSession(
  org: TestOrg,
  counts: { shots: number; highlights: number; players: number },
  opts: { created?: number } = {},
) {
  const sessionId = newId("sess");
  const created = opts.created ?? nowSeconds();
  await db.insert(schema.sessions).values({
    id: sessionId,
    orgId: org.orgId,
    groupId: org.groupId,
    apiKeyId: org.keyId,
    status: "processed",
    sourceType: "url",
    sourceUrl: "https://public.example.test/game.mp4",
    metadata: { game: "final" },
    options: { session_type: "5v5", court_type: "full", camera_setup: "fixed", has_jerseys: true, jerseys: "auto" },
    durationSeconds: 3000,
    costCents: 417,
    runVersion: 3,
    video: { url: `sessions/${sessionId}/video.mp4`, preview_url: `sessions/${sessionId}/preview.jpg`, "720p": `sessions/${sessionId}/720p.mp4`, width: 1920, height: 1080, fps: 29.97 },
    artifacts: { actions: `sessions/${sessionId}/actions.jsonl`, balls: null },
    totals: stats(40),
    shotCount: counts.shots,
    highlightCount: counts.highlights,
    playerCount: counts.players,
    created,
    updated: created,
    completedAt: created,
  });
  const playerIds = Array.from({ length: counts.players }, () => newId("plr"));
  const shotIds = Array.from({ length: counts.shots }, () => newId("shot"));
  const highlightIds = Array.from({ length: counts.highlights }, () => newId("hl"));
  const rows: { table: any; values: any[] }[] = [
    {
      table: schema.players,
      values: playerIds.map((id, i) => ({
        id, sessionId, orgId: org.orgId, position: i, name: i === 0 ? "Ada" : null, jersey: String(i), userId: i === 0 ? "u_ada" : null,
        teamId: i % 2, metadata: i === 0 ? { crm: "42" } : {}, stats: stats(i),
      })),
    },
    {
      table: schema.shots,
      values: shotIds.map((id, i) => ({
        id, sessionId, orgId: org.orgId, position: i, shotIndex: i, startSeconds: i * 10, endSeconds: i * 10 + 4, made: i % 2 === 0,
        points: i % 2 === 0 ? 2 : 0, type: "fieldgoal", isThreePoint: false, isFreeThrow: false, isFouled: false,
        location: { shot_image_normed: [0.5, 0.25], shot_world_normed: null, hoop_image_normed: [0.5, 0.1] }, excitementScore: 0.5,
        scorerId: playerIds[i % Math.max(1, counts.players)] ?? null, assisterId: null, rebounderId: null, highlightId: highlightIds[i] ?? null,
      })),
    },
    {
      table: schema.highlights,
      values: highlightIds.map((id, i) => ({
        id, sessionId, orgId: org.orgId, position: i, shotId: shotIds[i] ?? newId("shot"), shotIndex: i, lengthSeconds: 8.5, isLowlight: false,
        isManual: false, playerId: playerIds[0] ?? null, video: { default: `sessions/${sessionId}/hl/${i}.mp4`, "720p": `sessions/${sessionId}/hl/${i}-720.mp4` },
        preview: { default: `sessions/${sessionId}/hl/${i}.jpg` }, created,
      })),
    },
  ];
  // D1 caps bound parameters per statement at 100: insert in small chunks.
  for (const { table, values } of rows) {
    for (let i = 0; i < values.length; i += 4) await db.insert(table).values(values.slice(i, i + 4));
  }
  return { sessionId, shotIds, highlightIds, playerIds };
}

export async function usageEventsOf(orgId: string) {
  return db.select().from(schema.usageEvents).where(eq(schema.usageEvents.orgId, orgId));
}

export async function sessionsOf(orgId: string) {
  return db.select().from(schema.sessions).where(eq(schema.sessions.orgId, orgId));
}

export async function jobsOf(orgId: string) {
  return db.select().from(schema.jobs).where(eq(schema.jobs.orgId, orgId));
}
