// Example requests and responses for every operation of the public and runner OpenAPI documents,
// keyed by operationId and merged into the documents when they are served (so route files stay
// about behaviour). test/worker/openapi-examples.test.ts checks that every operation has one and
// that each example is valid against its own schema, so the examples cannot drift from the API.

const BASE = "https://api.example.com";
const SESSION = "sess_4f9XoT2qLw8bZ1mN3pQ7rS5u";
const GROUP = "grp_7Hq2VxL0nB5mK8cR1tY4wZ6a";
const SHOT = "shot_2kQ9rT5vX1zB7nM3pL8wC4dF";
const HIGHLIGHT = "hl_6tY1uI8oP3aS5dF7gH9jK2lZ";
const PLAYER = "plr_9xC3vB6nM1qW4eR7tY2uI5oP";
const PLAYER_2 = "plr_3aS6dF9gH2jK5lZ8xC1vB4nM";
const CREATED = 1767225600; // 2026-01-01T00:00:00Z
const EXP = "exp=1767830400&sig=Jq8vN0cT5yX2mB7kR4wL9pS1dF6hG3zA0eU8iO5tY2u";
const media = (key: string) => `${BASE}/media/sessions/${SESSION}/${key}?${EXP}`;

const box = (points: number, twoMade: number, twoAtt: number, threeMade: number, threeAtt: number, ftMade: number, ftAtt: number, assist: number, rebound: number) => ({
  points,
  fg_2pt_att: twoAtt,
  fg_2pt_make: twoMade,
  fg_3pt_att: threeAtt,
  fg_3pt_make: threeMade,
  ft_att: ftAtt,
  ft_make: ftMade,
  assist,
  rebound,
});

/** What a shot is, the same in the public answer and in the runner's result (which names it by a local key). */
const SHOT_FACTS = {
  index: 0,
  start_seconds: 83.4,
  end_seconds: 85.1,
  made: true,
  points: 3,
  type: "fieldgoal",
  is_three_point: true,
  is_free_throw: false,
  is_fouled: false,
  location: { shot_image_normed: [0.412, 0.655], shot_world_normed: [0.231, 0.468], hoop_image_normed: [0.503, 0.284] },
  excitement_score: 0.82,
};

const shot = {
  id: SHOT,
  object: "shot",
  ...SHOT_FACTS,
  players: { scorer: PLAYER, assister: PLAYER_2, rebounder: null },
  highlight: HIGHLIGHT,
};

const highlight = {
  id: HIGHLIGHT,
  object: "highlight",
  shot: SHOT,
  shot_index: 0,
  length_seconds: 8.5,
  is_lowlight: false,
  is_manual: false,
  player: PLAYER,
  video: {
    default: media(`highlights/${HIGHLIGHT}/default.mp4`),
    horizontal: media(`highlights/${HIGHLIGHT}/horizontal.mp4`),
    "1080p": null,
    "720p": media(`highlights/${HIGHLIGHT}/720p.mp4`),
    "480p": media(`highlights/${HIGHLIGHT}/480p.mp4`),
    "360p": media(`highlights/${HIGHLIGHT}/360p.mp4`),
    "240p": media(`highlights/${HIGHLIGHT}/240p.mp4`),
    "144p": media(`highlights/${HIGHLIGHT}/144p.mp4`),
  },
  preview: { default: media(`highlights/${HIGHLIGHT}/preview-default.jpg`), horizontal: media(`highlights/${HIGHLIGHT}/preview-horizontal.jpg`) },
  created: CREATED + 1800,
};

const player = {
  id: PLAYER,
  object: "player",
  name: "Maya Lopez",
  jersey: "23",
  user_id: "athlete_1042",
  team_id: 0,
  metadata: { user_id: "athlete_1042", position: "guard" },
  stats: box(3, 0, 0, 1, 1, 0, 0, 0, 0),
};

const player2 = {
  id: PLAYER_2,
  object: "player",
  name: null,
  jersey: "7",
  user_id: null,
  team_id: 0,
  metadata: {},
  stats: box(0, 0, 0, 0, 0, 0, 0, 1, 0),
};

const options = { session_type: "5v5", court_type: "full", camera_setup: "fixed", has_jerseys: true, jerseys: "auto" };
const emptyList = (kind: string) => ({ object: "list", data: [], has_more: false, total_count: 0, url: `/v1/sessions/${SESSION}/${kind}` });

const queuedSession = {
  id: SESSION,
  object: "session",
  created: CREATED,
  status: "queued",
  group: GROUP,
  source: { type: "url", url: "https://videos.example.org/games/2026-01-01-final.mp4", upload_id: null },
  options,
  metadata: { game: "League final", home: "Eagles" },
  run_version: null,
  duration_seconds: null,
  cost_cents: null,
  highlights: emptyList("highlights"),
  shots: emptyList("shots"),
  players: emptyList("players"),
  totals: box(0, 0, 0, 0, 0, 0, 0, 0, 0),
  video: { url: null, preview_url: null, "1080p": null, "720p": null, "360p": null, width: null, height: null, fps: null },
  artifacts: { actions: null, balls: null, hoops: null, clusters: null },
  error: null,
};

const processedSession = {
  ...queuedSession,
  status: "processed",
  run_version: 3,
  duration_seconds: 2712,
  cost_cents: 377,
  highlights: { object: "list", data: [highlight], has_more: true, total_count: 64, url: `/v1/sessions/${SESSION}/highlights` },
  shots: { object: "list", data: [shot], has_more: true, total_count: 64, url: `/v1/sessions/${SESSION}/shots` },
  players: { object: "list", data: [player, player2], has_more: true, total_count: 11, url: `/v1/sessions/${SESSION}/players` },
  totals: box(71, 19, 40, 7, 19, 12, 15, 14, 31),
  video: {
    url: null,
    preview_url: media("preview.jpg"),
    "1080p": media("renditions/1080p.mp4"),
    "720p": media("renditions/720p.mp4"),
    "360p": media("renditions/360p.mp4"),
    width: 1920,
    height: 1080,
    fps: 29.97,
  },
  artifacts: { actions: media("artifacts/actions.jsonl"), balls: media("artifacts/balls.jsonl"), hoops: media("artifacts/hoops.jsonl"), clusters: media("artifacts/clusters.jsonl") },
};

const webhookEndpoint = {
  id: "we_5gH8jK1lZ4xC7vB0nM3qW6eR",
  object: "webhook_endpoint",
  url: "https://example.com/hooks/hoops",
  description: "Production receiver",
  status: "enabled",
  disabled_reason: null,
  created: CREATED,
};

const usageEvent = {
  id: "ue_1qW4eR7tY0uI3oP6aS9dF2gH",
  object: "usage_event",
  session: SESSION,
  api_key: "key_8jK1lZ4xC7vB0nM3qW6eR9tY",
  status: "settled",
  held_cents: 1000,
  settled_cents: 377,
  estimated_seconds: 7200,
  measured_seconds: 2712,
  created: CREATED,
  settled_at: CREATED + 1900,
  voided_at: null,
};

const list = (data: unknown[], hasMore = false, total = data.length) => ({ object: "list", data, has_more: hasMore, total_count: total });
const leaseId = "lease_0aS3dF6gH9jK2lZ5xC8vB1nM";

export interface OperationExample {
  /** Example JSON request body (operations that take one). */
  request?: unknown;
  /** Example of the 200 answer. */
  response: unknown;
  /** Example values of query parameters, by name. */
  query?: Record<string, unknown>;
}

export const PUBLIC_API_EXAMPLES: Record<string, OperationExample> = {
  getBalance: {
    response: { object: "balance", credit_cents: 100000, held_cents: 1000, available_cents: 99000, rate_cents_per_hour: 500, soonest_expiry: 1798761600 },
  },
  createUpload: {
    request: { content_type: "video/mp4", size: 734003200, filename: "final.mp4" },
    response: {
      id: "up_3vB6nM9qW2eR5tY8uI1oP4aS",
      object: "upload",
      upload_url: `${BASE}/uploads/v1/up_3vB6nM9qW2eR5tY8uI1oP4aS?sig=Xc7vB0nM3qW6eR9tY2uI5oP8aS1dF4gH7jK0lZ3xC6v`,
      content_type: "video/mp4",
      size: 734003200,
      upload_method: "tus",
      chunk_size: 52428800,
      expires_in_seconds: 604800,
    },
  },
  createSession: {
    request: {
      source: { type: "url", url: "https://videos.example.org/games/2026-01-01-final.mp4" },
      metadata: { game: "League final", home: "Eagles" },
      duration_seconds: 2712,
      options: { session_type: "5v5" },
      rosters: [{ team: 0, name: "Eagles", players: [{ jersey: "23", name: "Maya Lopez", user_id: "athlete_1042", metadata: { position: "guard" } }, { jersey: "7" }] }],
    },
    response: queuedSession,
  },
  listSessions: { query: { limit: 20, status: "processed" }, response: { ...list([processedSession], true, 57), url: undefined } },
  getSession: { response: processedSession },
  listSessionHighlights: { query: { limit: 100, offset: 0 }, response: { ...list([highlight], true, 64), url: `/v1/sessions/${SESSION}/highlights` } },
  listSessionShots: { query: { limit: 100, offset: 0 }, response: { ...list([shot], true, 64), url: `/v1/sessions/${SESSION}/shots` } },
  listSessionPlayers: { query: { limit: 100, offset: 0 }, response: { ...list([player, player2], true, 11), url: `/v1/sessions/${SESSION}/players` } },
  createSessionShareLink: {
    request: { expires_in_seconds: 86400 },
    response: {
      object: "share_link",
      session: SESSION,
      url: `${BASE}/hub/sessions/${SESSION}?exp=1767312000&kid=h7Kq2xVb&sig=Pz4mW9sL1cQ6vY3tR8nB0kJ5hG2fD7aE1uI4oX9wZ6c`,
      expires: 1767312000,
    },
  },
  listUsage: { query: { limit: 20, status: "settled" }, response: list([usageEvent], false, 1) },
  createWebhookEndpoint: {
    request: { url: "https://example.com/hooks/hoops", description: "Production receiver" },
    response: { ...webhookEndpoint, secret: "hws_prod_Zk3d9QmW1xY7bV2nT5rL8pC4hJ6gF0aS" },
  },
  listWebhookEndpoints: { query: { limit: 20 }, response: list([webhookEndpoint]) },
  getWebhookEndpoint: { response: webhookEndpoint },
  deleteWebhookEndpoint: { response: { id: webhookEndpoint.id, object: "webhook_endpoint", deleted: true } },
  testWebhookEndpoint: {
    response: { object: "webhook_test", event: "evt_2gH5jK8lZ1xC4vB7nM0qW3eR", delivered: true, status_code: 200, latency_ms: 143, error: null },
  },
  listEvents: {
    query: { type: "session.processed", limit: 20 },
    response: list([{ id: "evt_6tY9uI2oP5aS8dF1gH4jK7lZ", object: "event", type: "session.processed", created: CREATED + 1900, data: { object: processedSession } }], true, 212),
  },
};

export const RUNNER_API_EXAMPLES: Record<string, OperationExample> = {
  runnerClaimJob: {
    request: { wait_seconds: 20 },
    response: {
      job: {
        id: "job_4eR7tY0uI3oP6aS9dF2gH5jK",
        session: SESSION,
        lease: { id: leaseId, expires_at: CREATED + 120 },
        attempt: 1,
        source: { type: "upload", download_url: `${BASE}/media/uploads/up_3vB6nM9qW2eR5tY8uI1oP4aS?${EXP}` },
        options,
        rosters: null,
      },
    },
  },
  runnerHeartbeat: { request: { lease_id: leaseId, stage: "analyze", percent: 42 }, response: { lease_expires_at: CREATED + 240, cancel: false } },
  runnerReportMeasured: { request: { lease_id: leaseId, duration_seconds: 2711.4 }, response: { proceed: true, needed_cents: 377, held_cents: 377 } },
  runnerCreateOutput: {
    request: { lease_id: leaseId, name: "renditions/720p.mp4", size: 412345678, content_type: "video/mp4" },
    response: { name: "renditions/720p.mp4", upload_url: `${BASE}/uploads/v1/out_9dF2gH5jK8lZ1xC4vB7nM0qW?sig=Lm4nB7vC0xZ3aS6dF9gH2jK5lP8oI1uY4tR7eW0qQ3z`, offset: 0 },
  },
  runnerCompleteJob: {
    request: {
      lease_id: leaseId,
      result: {
        run_version: 3,
        video: { duration_seconds: 2711.4, width: 1920, height: 1080, fps: 29.97, preview: "preview.jpg", "1080p": "renditions/1080p.mp4", "720p": "renditions/720p.mp4", "360p": "renditions/360p.mp4" },
        artifacts: { actions: "artifacts/actions.jsonl", balls: "artifacts/balls.jsonl", hoops: "artifacts/hoops.jsonl", clusters: "artifacts/clusters.jsonl" },
        shots: [
          {
            key: "shot_1",
            ...SHOT_FACTS,
            players: { scorer: "player_1", assister: null, rebounder: null },
            highlight: "highlight_1",
          },
        ],
        highlights: [
          {
            key: "highlight_1",
            shot: "shot_1",
            shot_index: 0,
            length_seconds: 8.5,
            is_lowlight: false,
            is_manual: false,
            player: "player_1",
            video: { default: "highlights/1/default.mp4", horizontal: "highlights/1/horizontal.mp4", "720p": "highlights/1/720p.mp4" },
            preview: { default: "highlights/1/preview-default.jpg", horizontal: "highlights/1/preview-horizontal.jpg" },
          },
        ],
        players: [{ key: "player_1", name: "Maya Lopez", jersey: "23", user_id: "athlete_1042", team_id: 0, metadata: { position: "guard" } }],
      },
    },
    response: { status: "processed" },
  },
  runnerFailJob: { request: { lease_id: leaseId, code: "no_hoops", message: "No hoop was visible in at least 20% of the analysed frames." }, response: { status: "failed" } },
  runnerReleaseJob: { request: { lease_id: leaseId, reason: "runner shutting down (SIGTERM)" }, response: { status: "released" } },
};

type OpenApiDocument = { paths?: Record<string, Record<string, any>> };

/**
 * Puts each operation's example into the document: the request body's and the 200 answer's media
 * type `example`, and query parameters' `example`. Examples whose value is `undefined` in a field
 * (`url` on top-level lists) drop that field, as JSON does.
 */
export function withExamples<T extends OpenApiDocument>(doc: T, examples: Record<string, OperationExample>): T {
  const json = (v: unknown) => JSON.parse(JSON.stringify(v));
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(operations)) {
      const example = op && typeof op === "object" ? examples[op.operationId] : undefined;
      if (!example) continue;
      const body = op.requestBody?.content?.["application/json"];
      if (body && example.request !== undefined) body.example = json(example.request);
      const ok = op.responses?.["200"]?.content?.["application/json"];
      if (ok) ok.example = json(example.response);
      for (const param of op.parameters ?? []) {
        if (param.in === "query" && example.query && param.name in example.query) param.example = example.query[param.name];
      }
    }
  }
  return doc;
}
