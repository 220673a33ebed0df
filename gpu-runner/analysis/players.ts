// Player identities from tracks: tracks are re-linked across short gaps, grouped by team and
// jersey number, and named from a roster when one is supplied.
import type { PlayerTrack } from "./tracks.ts";

export interface Identity {
  key: string;
  trackIds: number[];
  team_id: 0 | 1 | null;
  jersey: string | null;
  frames: number;
  firstFrame: number;
  valid: boolean;
  name: string | null;
  user_id: string | null;
  metadata: Record<string, string>;
}

export interface RosterPlayer {
  jersey: string;
  name?: string;
  user_id?: string;
  metadata?: Record<string, string>;
}
export interface Roster {
  team: number;
  players: RosterPlayer[];
}

/** Majority jersey read: at least two confident reads that agree, and a majority of them. */
export function voteJersey(reads: Array<{ text: string; confidence: number }>, minConfidence = 0.6): string | null {
  const counts = new Map<string, number>();
  let total = 0;
  for (const r of reads) {
    if (r.confidence < minConfidence) continue;
    counts.set(r.text, (counts.get(r.text) ?? 0) + 1);
    total++;
  }
  let best: string | null = null, bc = 0;
  for (const [t, c] of counts) if (c > bc || (c === bc && best !== null && t < best)) { best = t; bc = c; }
  return best && bc >= 2 && bc * 2 > total ? best : null;
}

export function buildIdentities(
  tracks: PlayerTrack[],
  trackTeams: Map<number, 0 | 1 | null>,
  trackJerseys: Map<number, string | null>,
  opts: { fps: number; minSeconds?: number },
): { identities: Identity[]; trackToKey: Map<number, string> } {
  const parent = new Map<number, number>(tracks.map((t) => [t.id, t.id]));
  const find = (x: number): number => (parent.get(x) === x ? x : (parent.set(x, find(parent.get(x)!)), parent.get(x)!));
  const jerseyOf = new Map<number, string | null>();
  const union = (a: number, b: number) => {
    const ra = find(a), rb = find(b);
    if (ra === rb) return;
    parent.set(rb, ra);
    jerseyOf.set(ra, jerseyOf.get(ra) ?? jerseyOf.get(rb) ?? null);
  };
  for (const t of tracks) jerseyOf.set(t.id, trackJerseys.get(t.id) ?? null);
  // 1. Appearance continuity: a track that ends where another of the same team starts shortly
  //    after is the same person lost for a moment (occlusion), unless their numbers disagree.
  const sorted = [...tracks].sort((a, b) => a.frames[0] - b.frames[0]);
  const gap = Math.round(opts.fps * 1.5);
  const linkedHead = new Set<number>();
  for (const a of sorted) {
    const aEnd = a.frames[a.frames.length - 1];
    const aBox = a.boxes[a.boxes.length - 1];
    let best: PlayerTrack | null = null, bestD = Infinity;
    for (const b of sorted) {
      if (b === a || linkedHead.has(b.id)) continue;
      const dt = b.frames[0] - aEnd;
      if (dt <= 0 || dt > gap) continue;
      if (trackTeams.get(a.id) !== trackTeams.get(b.id)) continue;
      const ja = jerseyOf.get(find(a.id)), jb = jerseyOf.get(find(b.id));
      if (ja && jb && ja !== jb) continue;
      const d = Math.hypot(b.boxes[0].cx - aBox.cx, b.boxes[0].cy - aBox.cy) / Math.max(aBox.h, 1);
      if (d < 1.5 && d < bestD) { bestD = d; best = b; }
    }
    if (best) { linkedHead.add(best.id); union(a.id, best.id); }
  }
  // 2. Same team and same number: the same player — unless the two were on screen at the same
  //    time, which proves a misread (OCR confuses 40 and 42 at low resolution); then the smaller
  //    group loses its number instead of absorbing another person.
  const framesOf = new Map<number, Set<number>>();
  for (const t of tracks) {
    const r = find(t.id);
    const set = framesOf.get(r) ?? new Set<number>();
    for (const f of t.frames) set.add(f);
    framesOf.set(r, set);
  }
  const overlap = (a: number, b: number) => {
    const [x, y] = [framesOf.get(a)!, framesOf.get(b)!].sort((p, q) => p.size - q.size);
    for (const f of x) if (y.has(f)) return true;
    return false;
  };
  const byNumber = new Map<string, number>();
  for (const t of [...tracks].sort((a, b) => b.frames.length - a.frames.length)) {
    const r = find(t.id);
    const j = jerseyOf.get(r);
    const team = trackTeams.get(t.id);
    if (!j || team === null || team === undefined) continue;
    const k = `${team}:${j}`;
    const other = byNumber.get(k);
    if (other === undefined) { byNumber.set(k, r); continue; }
    const ro = find(other);
    if (ro === r) continue;
    if (overlap(ro, r)) {
      const small = framesOf.get(ro)!.size < framesOf.get(r)!.size ? ro : r;
      jerseyOf.set(small, null);
      if (small === ro) byNumber.set(k, r);
      continue;
    }
    const merged = new Set([...framesOf.get(ro)!, ...framesOf.get(r)!]);
    union(ro, r);
    framesOf.set(find(r), merged);
  }
  const groups = new Map<number, PlayerTrack[]>();
  for (const t of tracks) {
    const r = find(t.id);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(t);
  }
  const minFrames = Math.round(opts.fps * (opts.minSeconds ?? 0.5));
  const ids = [...groups.entries()]
    .map(([root, ts]) => {
      const frames = ts.reduce((a, t) => a + t.frames.length, 0);
      const teamVotes = [0, 0];
      for (const t of ts) { const tm = trackTeams.get(t.id); if (tm === 0 || tm === 1) teamVotes[tm] += t.frames.length; }
      const team_id: 0 | 1 | null = teamVotes[0] + teamVotes[1] === 0 ? null : teamVotes[0] >= teamVotes[1] ? 0 : 1;
      return { root, ts, frames, team_id, jersey: jerseyOf.get(root) ?? null, firstFrame: Math.min(...ts.map((t) => t.frames[0])) };
    })
    .sort((a, b) => a.firstFrame - b.firstFrame);
  const trackToKey = new Map<number, string>();
  const identities: Identity[] = ids.map((g, i) => {
    const key = `player_${i + 1}`;
    for (const t of g.ts) trackToKey.set(t.id, key);
    return {
      key,
      trackIds: g.ts.map((t) => t.id),
      team_id: g.team_id,
      jersey: g.jersey,
      frames: g.frames,
      firstFrame: g.firstFrame,
      // Too short or teamless: kept in artifacts, never credited with a stat.
      valid: g.frames >= minFrames && g.team_id !== null,
      name: null,
      user_id: null,
      metadata: {},
    };
  });
  return { identities, trackToKey };
}

/**
 * Roster teams are the caller's numbering, clusters are ours; the pairing that matches more jersey
 * numbers wins, and our team ids are renumbered to the caller's. Matched players get the supplied name, and the caller's ids go into metadata
 * (user_id also on the player itself).
 */
export function applyRosters(identities: Identity[], rosters: Roster[] | undefined): void {
  if (!rosters?.length) return;
  const matches = (rosterTeam: number, cluster: 0 | 1) => {
    const r = rosters.find((x) => x.team === rosterTeam);
    if (!r) return 0;
    return identities.filter((p) => p.team_id === cluster && p.jersey && r.players.some((q) => q.jersey === p.jersey)).length;
  };
  const straight = matches(0, 0) + matches(1, 1), swapped = matches(0, 1) + matches(1, 0);
  // Renumber our teams to the caller's, so team_id means what the roster said.
  if (swapped > straight) for (const p of identities) if (p.team_id !== null) p.team_id = (1 - p.team_id) as 0 | 1;
  for (const r of rosters) {
    const cluster = r.team as 0 | 1;
    for (const entry of r.players) {
      const p = identities.find((x) => x.valid && x.team_id === cluster && x.jersey === entry.jersey);
      if (!p) continue;
      p.name = entry.name ?? null;
      p.user_id = entry.user_id ?? null;
      p.metadata = { ...(entry.metadata ?? {}), ...(entry.user_id ? { user_id: entry.user_id } : {}) };
    }
  }
}
