import { describe, expect, it } from "vitest";
import { admin, call, createOrg, expectError, type TestOrg } from "./helpers";
import { insertUpload, jobsOf, sessionsOf, usageEventsOf, videoUrl, VIDEOS } from "./session-fixtures";

const submit = (org: TestOrg, json: unknown, headers: Record<string, string> = {}) =>
  call("/v1/sessions", { method: "POST", key: org.key, json, headers });

const balanceOf = async (org: TestOrg) => (await (await call("/v1/balance", { key: org.key })).json()) as any;

const SESSION_KEYS = [
  "id", "object", "created", "status", "group", "source", "options", "metadata", "run_version", "duration_seconds", "cost_cents",
  "highlights", "shots", "players", "totals", "video", "artifacts", "error",
].sort();

describe("POST /v1/sessions: a link", () => {
  it("answers the queued session with every key, empty lists and the hold headers; commits session, hold and pending job", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const res = await submit(org, { source: { url: videoUrl() }, duration_seconds: 3000, metadata: { game: "final" } });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(Object.keys(body).sort()).toEqual(SESSION_KEYS);
    expect(body).toMatchObject({
      object: "session",
      status: "queued",
      group: org.groupId,
      source: { type: "url", url: videoUrl(), upload_id: null },
      options: { session_type: "5v5", court_type: "full", camera_setup: "fixed", has_jerseys: true, jerseys: "auto" },
      metadata: { game: "final" },
      run_version: null,
      duration_seconds: null,
      cost_cents: null,
      error: null,
      totals: { points: 0, fg_2pt_att: 0, fg_2pt_make: 0, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0 },
      video: { url: null, preview_url: null, "1080p": null, "720p": null, "360p": null, width: null, height: null, fps: null },
      artifacts: { actions: null, balls: null, hoops: null, clusters: null },
    });
    expect(body.id).toMatch(/^sess_/);
    for (const kind of ["highlights", "shots", "players"]) {
      expect(body[kind]).toEqual({ object: "list", data: [], has_more: false, total_count: 0, url: `/v1/sessions/${body.id}/${kind}` });
    }
    // 3000 s × 500 cents / 3600 s = 416.67 → 417
    expect(res.headers.get("X-Service-Cost-Cents")).toBe("417");
    expect(res.headers.get("X-Service-Available-Cents")).toBe(String(10_000 - 417));
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();

    const [event] = await usageEventsOf(org.orgId);
    expect(event).toMatchObject({ sessionId: body.id, apiKeyId: org.keyId, status: "held", heldCents: 417, estimatedSeconds: 3000 });
    const [job] = await jobsOf(org.orgId);
    expect(job.sessionId).toBe(body.id);
    const [row] = await sessionsOf(org.orgId);
    expect(row).toMatchObject({ id: body.id, sourceType: "url", declaredDurationSeconds: 3000 });
  });

  it("estimates from the link's Content-Length (1,000,000 bytes per second) when no duration is sent", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const res = await submit(org, { source: { url: videoUrl(3_600_000_000) } });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Service-Cost-Cents")).toBe("500"); // 3600 s
    expect((await usageEventsOf(org.orgId))[0].estimatedSeconds).toBe(3600);
  });

  it("holds 2 hours when neither duration nor size is known", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const res = await submit(org, { source: { url: `${VIDEOS}/no-such-file.mp4` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Service-Cost-Cents")).toBe("1000");
  });

  it("refuses a link over 10 GB by its Content-Length, holding nothing, also behind a redirect", async () => {
    const org = await createOrg({ creditsCents: 100_000 });
    await expectError(await submit(org, { source: { url: videoUrl(10_000_000_001) } }), 400, "video_too_large");
    const redirected = `${VIDEOS}/redirect?to=${encodeURIComponent(videoUrl(12_000_000_000))}`;
    await expectError(await submit(org, { source: { url: redirected } }), 400, "video_too_large");
    expect(await usageEventsOf(org.orgId)).toHaveLength(0);
    expect(await sessionsOf(org.orgId)).toHaveLength(0);
    expect((await balanceOf(org)).held_cents).toBe(0);
    // exactly 10 GB is allowed
    expect((await submit(org, { source: { url: videoUrl(10_000_000_000) } })).status).toBe(200);
  });

  it("answers 402 insufficient_credits with needed and available cents, holding nothing", async () => {
    const org = await createOrg({ creditsCents: 300 });
    const err = await expectError(await submit(org, { source: { url: videoUrl() }, duration_seconds: 3600 }), 402, "insufficient_credits");
    expect(err.type).toBe("insufficient_credits");
    expect(err.needed_cents).toBe(500);
    expect(err.available_cents).toBe(300);
    expect(await sessionsOf(org.orgId)).toHaveLength(0);
    expect(await jobsOf(org.orgId)).toHaveLength(0);
    expect(await usageEventsOf(org.orgId)).toHaveLength(0);
  });

  it("checks against available credit: earlier holds count", async () => {
    const org = await createOrg({ creditsCents: 900 });
    expect((await submit(org, { source: { url: videoUrl(1, "a") }, duration_seconds: 3600 })).status).toBe(200);
    const err = await expectError(await submit(org, { source: { url: videoUrl(1, "b") }, duration_seconds: 3600 }), 402, "insufficient_credits");
    expect(err.available_cents).toBe(400);
  });
});

describe("POST /v1/sessions: the camera platform (Veo)", () => {
  it("routes match pages and CDN links to source.type veo, even when type url is given", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const page = await submit(org, { source: { type: "url", url: "https://app.veo.co/matches/20261121-u17-final-4f9a/" } });
    expect(page.status).toBe(200);
    expect(((await page.json()) as any).source).toEqual({ type: "veo", url: "https://app.veo.co/matches/20261121-u17-final-4f9a/", upload_id: null });
    expect(page.headers.get("X-Service-Cost-Cents")).toBe("1000"); // size unknown at submit: 2 hours
    const cdn = await submit(org, { source: { url: "https://cdn.veocdn.com/v/1.mp4" }, duration_seconds: 60 });
    expect(((await cdn.json()) as any).source.type).toBe("veo");
  });

  it("refuses type veo with a link that is not Veo's", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    await expectError(await submit(org, { source: { type: "veo", url: "https://public.example.test/game.mp4" } }), 400, "url_not_allowed", "source.url");
  });

  it("accepts the spec's generic type platform as a synonym, answering with veo", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const res = await submit(org, { source: { type: "platform", url: "https://app.veo.co/matches/20261122-u15-semi-77aa/" }, duration_seconds: 60 });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).source.type).toBe("veo");
    await expectError(await submit(org, { source: { type: "platform", url: "https://public.example.test/game.mp4" } }), 400, "url_not_allowed", "source.url");
  });
});

describe("POST /v1/sessions: uploads", () => {
  it("accepts a complete upload and estimates from its size", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const uploadId = await insertUpload(org, { size: 720_000_000 });
    const res = await submit(org, { source: { upload_id: uploadId } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).source).toEqual({ type: "upload", url: null, upload_id: uploadId });
    expect(res.headers.get("X-Service-Cost-Cents")).toBe("100"); // 720 s
  });

  it("answers 409 upload_incomplete before the bytes have landed", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const uploadId = await insertUpload(org, { status: "pending" });
    await expectError(await submit(org, { source: { type: "upload", upload_id: uploadId } }), 409, "upload_incomplete", "source.upload_id");
    expect(await usageEventsOf(org.orgId)).toHaveLength(0);
  });

  it("treats another organization's upload, and unknown ids, as missing", async () => {
    const owner = await createOrg();
    const other = await createOrg({ creditsCents: 10_000 });
    const uploadId = await insertUpload(owner);
    await expectError(await submit(other, { source: { upload_id: uploadId } }), 404, "resource_missing", "source.upload_id");
    await expectError(await submit(other, { source: { upload_id: "up_doesnotexist000000000000" } }), 404, "resource_missing", "source.upload_id");
  });

  it("refuses an upload over 10 GB and an expired one", async () => {
    const org = await createOrg({ creditsCents: 100_000 });
    await expectError(await submit(org, { source: { upload_id: await insertUpload(org, { size: 10_000_000_001 }) } }), 400, "video_too_large");
    await expectError(await submit(org, { source: { upload_id: await insertUpload(org, { status: "expired" }) } }), 410, "upload_expired");
    expect(await usageEventsOf(org.orgId)).toHaveLength(0);
  });
});

describe("POST /v1/sessions: SSRF corpus through the endpoint", () => {
  const blocked = [
    "http://public.example.test/game.mp4",
    "https://user:pass@public.example.test/game.mp4",
    "https://private.example.test/a.mp4",
    "https://mixed.example.test/a.mp4",
    "https://linklocal.example.test/latest/meta-data",
    "https://cgnat.example.test/a.mp4",
    "https://multicast.example.test/a.mp4",
    "https://zero.example.test/a.mp4",
    "https://ula.example.test/a.mp4",
    "https://mapped.example.test/a.mp4",
    "https://nonexistent.example.test/a.mp4",
    // Worker tests run with the development loopback setting on, so the
    // alternative spellings here name 10.0.0.1 (decimal, hex, octal); the
    // loopback ones are covered with the setting off in url-safety.test.ts.
    "https://167772161/a.mp4",
    "https://0xa.0.0.1/a.mp4",
    "https://012.0.0.1/a.mp4",
    "https://10.0.0.1/a.mp4",
    "https://169.254.169.254/a",
    "https://[::ffff:127.0.0.1]/a",
    "https://[fe80::1]/a",
    "https://8.8.8.8/a.mp4",
    "file:///etc/passwd",
    "not a url",
  ];
  it("refuses each with 400 url_not_allowed on source.url and holds nothing", async () => {
    const org = await createOrg({ creditsCents: 100_000 });
    for (const url of blocked) {
      const res = await submit(org, { source: { url } });
      await expectError(res, 400, "url_not_allowed", "source.url").catch((err) => {
        throw new Error(`${url}: ${(err as Error).message}`);
      });
    }
    expect(await usageEventsOf(org.orgId)).toHaveLength(0);
  });

  it("refuses a redirect from a public link to a private address", async () => {
    const org = await createOrg({ creditsCents: 100_000 });
    const res = await submit(org, { source: { url: `${VIDEOS}/redirect?to=${encodeURIComponent("https://10.0.0.1/a.mp4")}` } });
    await expectError(res, 400, "url_not_allowed", "source.url");
  });
});

describe("POST /v1/sessions: validation", () => {
  const cases: Array<[string, unknown, string]> = [
    ["missing source", { metadata: {} }, "source"],
    ["both url and upload_id", { source: { url: "https://public.example.test/a.mp4", upload_id: "up_x" } }, "source"],
    ["url type without url", { source: { type: "url" } }, "source.url"],
    ["upload type without id", { source: { type: "upload" } }, "source.upload_id"],
    ["unknown source type", { source: { type: "youtube", url: "https://public.example.test/a.mp4" } }, "source.type"],
    ["unknown top-level key", { source: { url: "https://public.example.test/a.mp4" }, colour: "red" }, ""],
    ["unknown option key", { source: { url: "https://public.example.test/a.mp4" }, options: { sesion_type: "5v5" } }, "options"],
    ["bad session_type", { source: { url: "https://public.example.test/a.mp4" }, options: { session_type: "6v6" } }, "options.session_type"],
    ["bad court_type", { source: { url: "https://public.example.test/a.mp4" }, options: { court_type: "quarter" } }, "options.court_type"],
    ["bad camera_setup", { source: { url: "https://public.example.test/a.mp4" }, options: { camera_setup: "drone" } }, "options.camera_setup"],
    ["has_jerseys not boolean", { source: { url: "https://public.example.test/a.mp4" }, options: { has_jerseys: "yes" } }, "options.has_jerseys"],
    ["bad jerseys", { source: { url: "https://public.example.test/a.mp4" }, options: { jerseys: "maybe" } }, "options.jerseys"],
    ["duration zero", { source: { url: "https://public.example.test/a.mp4" }, duration_seconds: 0 }, "duration_seconds"],
    ["duration fractional", { source: { url: "https://public.example.test/a.mp4" }, duration_seconds: 1.5 }, "duration_seconds"],
    ["duration over a day", { source: { url: "https://public.example.test/a.mp4" }, duration_seconds: 86_401 }, "duration_seconds"],
    ["metadata value not a string", { source: { url: "https://public.example.test/a.mp4" }, metadata: { n: 1 } }, "metadata.n"],
    ["metadata value too long", { source: { url: "https://public.example.test/a.mp4" }, metadata: { n: "x".repeat(501) } }, "metadata.n"],
    ["metadata 21 pairs", { source: { url: "https://public.example.test/a.mp4" }, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }, "metadata"],
    [
      "roster jersey of 4 digits",
      { source: { url: "https://public.example.test/a.mp4" }, rosters: [{ team: 0, players: [{ jersey: "1234" }] }] },
      "rosters.0.players.0.jersey",
    ],
    ["roster team 2", { source: { url: "https://public.example.test/a.mp4" }, rosters: [{ team: 2, players: [{ jersey: "1" }] }] }, "rosters.0.team"],
    [
      "three rosters",
      { source: { url: "https://public.example.test/a.mp4" }, rosters: [0, 1, 0].map((team) => ({ team, players: [{ jersey: "1" }] })) },
      "rosters",
    ],
    [
      "one team twice",
      { source: { url: "https://public.example.test/a.mp4" }, rosters: [0, 0].map((team) => ({ team, players: [{ jersey: "1" }] })) },
      "rosters",
    ],
    [
      "duplicate jersey in a team",
      { source: { url: "https://public.example.test/a.mp4" }, rosters: [{ team: 0, players: [{ jersey: "4" }, { jersey: "4" }] }] },
      "rosters.0.players",
    ],
    [
      "rosters with jerseys disabled",
      { source: { url: "https://public.example.test/a.mp4" }, options: { jerseys: "disabled" }, rosters: [{ team: 0, players: [{ jersey: "4" }] }] },
      "options.jerseys",
    ],
    [
      "rosters without jerseys worn",
      { source: { url: "https://public.example.test/a.mp4" }, options: { has_jerseys: false }, rosters: [{ team: 0, players: [{ jersey: "4" }] }] },
      "options.has_jerseys",
    ],
    ["jerseys enabled without jerseys worn", { source: { url: "https://public.example.test/a.mp4" }, options: { has_jerseys: false, jerseys: "enabled" } }, "options.jerseys"],
  ];
  for (const [name, body, param] of cases) {
    it(`refuses ${name} with parameter_invalid`, async () => {
      const org = await createOrg({ creditsCents: 10_000 });
      const err = await expectError(await submit(org, body), 400, "parameter_invalid");
      if (param) expect(err.param).toBe(param);
    });
  }

  it("metadata keys over 40 characters are refused", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const err = await expectError(await submit(org, { source: { url: videoUrl() }, metadata: { ["k".repeat(41)]: "v" } }), 400, "parameter_invalid");
    expect(err.param).toMatch(/^metadata/);
  });

  it("accepts 20 metadata pairs at the limits, rosters for both teams, and echoes the options", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const metadata = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}`.padEnd(40, "k"), "v".repeat(500)]));
    const res = await submit(org, {
      source: { url: videoUrl() },
      metadata,
      options: { session_type: "3v3", court_type: "half", camera_setup: "handheld", jerseys: "enabled" },
      rosters: [
        { team: 0, name: "Hawks", players: [{ jersey: "7", name: "Ada", user_id: "u_1", metadata: { crm: "42" } }, { jersey: "07" }] },
        { team: 1, players: [{ jersey: "23" }] },
      ],
    });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.metadata).toEqual(metadata);
    expect(body.options).toEqual({ session_type: "3v3", court_type: "half", camera_setup: "handheld", has_jerseys: true, jerseys: "enabled" });
    const [row] = await sessionsOf(org.orgId);
    expect((row.rosters as any[])[0].players[0]).toEqual({ jersey: "7", name: "Ada", user_id: "u_1", metadata: { crm: "42" } });
  });

  it("uses the group given (one of the organization's) and refuses another organization's group", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const other = await createOrg();
    const group = await admin("POST", `/admin/v1/organizations/${org.orgId}/groups`, { name: "U17" });
    const res = await submit(org, { source: { url: videoUrl() }, group: group.id });
    expect(((await res.json()) as any).group).toBe(group.id);
    await expectError(await submit(org, { source: { url: videoUrl(2) }, group: other.groupId }), 404, "resource_missing", "group");
    await expectError(await submit(org, { source: { url: videoUrl(3) }, group: "grp_nope" }), 404, "resource_missing", "group");
  });

  it("answers parameter_invalid to a body that is not JSON", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const res = await call("/v1/sessions", { method: "POST", key: org.key, body: "{nope", headers: { "Content-Type": "application/json" } });
    await expectError(res, 400, "parameter_invalid");
  });
});

describe("POST /v1/sessions: the same link within 24 hours", () => {
  it("returns the earlier session and holds nothing new; a changed option or metadata entry starts a new run", async () => {
    const org = await createOrg({ creditsCents: 100_000 });
    const body = { source: { url: videoUrl(5_000_000) }, options: { session_type: "2v2" }, metadata: { game: "1" } };
    const first: any = await (await submit(org, body)).json();
    const again = await submit(org, { ...body, options: { session_type: "2v2", jerseys: "auto" } }); // same settings, defaults spelled out
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).id).toBe(first.id);
    expect(again.headers.get("X-Service-Cost-Cents")).toBe("0");
    expect(await usageEventsOf(org.orgId)).toHaveLength(1);

    const otherOption: any = await (await submit(org, { ...body, options: { session_type: "3v3" } })).json();
    const moreMetadata: any = await (await submit(org, { ...body, metadata: { game: "1", venue: "gym" } })).json();
    const otherGroup = await admin("POST", `/admin/v1/organizations/${org.orgId}/groups`, { name: "B" });
    const inGroup: any = await (await submit(org, { ...body, group: otherGroup.id })).json();
    const ids = new Set([first.id, otherOption.id, moreMetadata.id, inGroup.id]);
    expect(ids.size).toBe(4);
    expect(await usageEventsOf(org.orgId)).toHaveLength(4);
  });

  it("never matches another organization's session", async () => {
    const a = await createOrg({ creditsCents: 10_000 });
    const b = await createOrg({ creditsCents: 10_000 });
    const body = { source: { url: videoUrl(6_000_000) } };
    const fromA: any = await (await submit(a, body)).json();
    const fromB: any = await (await submit(b, body)).json();
    expect(fromB.id).not.toBe(fromA.id);
  });
});

describe("POST /v1/sessions: concurrency", () => {
  it("N parallel submits against a balance covering fewer than N never hold more than available", async () => {
    const org = await createOrg({ creditsCents: 1_200 }); // covers two holds of 500
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => submit(org, { source: { url: videoUrl(1, `p${i}`) }, duration_seconds: 3600, metadata: { i: String(i) } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 402, 402, 402, 402, 402, 402]);
    for (const res of results.filter((r) => r.status === 402)) await expectError(res, 402, "insufficient_credits");
    const events = await usageEventsOf(org.orgId);
    expect(events).toHaveLength(2);
    expect(events.reduce((sum, e) => sum + e.heldCents, 0)).toBeLessThanOrEqual(1_200);
    expect(await sessionsOf(org.orgId)).toHaveLength(2);
    expect(await jobsOf(org.orgId)).toHaveLength(2);
  });

  it("N parallel submits of the same link create one session", async () => {
    const org = await createOrg({ creditsCents: 100_000 });
    const results = await Promise.all(Array.from({ length: 6 }, () => submit(org, { source: { url: videoUrl(7_000_000) } })));
    const ids = new Set(await Promise.all(results.map(async (r) => ((await r.json()) as any).id)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(ids.size).toBe(1);
    expect(await usageEventsOf(org.orgId)).toHaveLength(1);
  });
});
