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

/** Median shirt colour of a track (robust to the number and to a few frames of shade). */
function medianShirt(t: PlayerTrack): [number, number, number] | null {
  if (t.colors.length === 0) return null;
  const med = (k: number) => {
    const v = t.colors.map((c) => c[k]).sort((x, y) => x - y);
    return v[Math.floor(v.length / 2)];
  };
  return [med(0), med(1), med(2)];
}

/** Two tracks wear the same shirt: within SAME_LOOK_RGB of each other (unknown colours never match). */
const SAME_LOOK_RGB = 35;
function sameLook(a: PlayerTrack, b: PlayerTrack): boolean {
  const ca = medianShirt(a), cb = medianShirt(b);
  return !!ca && !!cb && Math.hypot(ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]) <= SAME_LOOK_RGB;
}

export function buildIdentities(
  tracks: PlayerTrack[],
  trackTeams: Map<number, 0 | 1 | null>,
  trackJerseys: Map<number, string | null>,
  opts: {
    fps: number;
    minSeconds?: number;
    /** The submit said `session_type: solo`: everyone seen apart from one another is that one player. */
    solo?: boolean;
  },
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
      // Appearance, not only position: a person who reappears farther off (walked on behind
      // someone, the camera panned) is still linked when the shirt is the same colour.
      const reach = sameLook(a, b) ? 3 : 1.5;
      if (d < reach && d < bestD) { bestD = d; best = b; }
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
  // 3. Groups never on screen together, of one team and one look, within a short time of each
  //    other: one person lost for longer than a blink (a lone shooter walking out and back).
  //    Only when nobody was ever on screen with anyone else: teammates wear the same shirt, so in
  //    a game the look alone cannot tell them apart. With `solo` the submit says there is one
  //    player: any groups apart in time are that person.
  const onScreen = new Map<number, number>();
  for (const t of tracks) if (t.frames.length >= 3) for (const f of t.frames) onScreen.set(f, (onScreen.get(f) ?? 0) + 1);
  const aloneThroughout = [...onScreen.values()].every((c) => c <= 1);
  const groupsByFirst = () => {
    const roots = new Map<number, PlayerTrack[]>();
    for (const t of tracks) roots.set(find(t.id), [...(roots.get(find(t.id)) ?? []), t]);
    return [...roots.entries()].sort((x, y) => framesOf.get(y[0])!.size - framesOf.get(x[0])!.size);
  };
  const longGap = Math.round(opts.fps * 10);
  const gapBetween = (a: Set<number>, b: Set<number>) => {
    const [a0, a1, b0, b1] = [Math.min(...a), Math.max(...a), Math.min(...b), Math.max(...b)];
    return Math.max(b0 - a1, a0 - b1);
  };
  const ordered = groupsByFirst();
  for (let i = 0; i < ordered.length; i++) {
    for (let j = i + 1; j < ordered.length; j++) {
      const ra = find(ordered[i][0]), rb = find(ordered[j][0]);
      if (ra === rb || overlap(ra, rb)) continue;
      const ja = jerseyOf.get(ra), jb = jerseyOf.get(rb);
      if (ja && jb && ja !== jb) continue;
      const alike = trackTeams.get(ordered[i][1][0].id) === trackTeams.get(ordered[j][1][0].id) &&
        sameLook(ordered[i][1][0], ordered[j][1][0]) && gapBetween(framesOf.get(ra)!, framesOf.get(rb)!) <= longGap;
      if (!opts.solo && !(aloneThroughout && alike)) continue;
      const merged = new Set([...framesOf.get(ra)!, ...framesOf.get(rb)!]);
      union(ra, rb);
      framesOf.set(find(ra), merged);
    }
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
      const voted: 0 | 1 | null = teamVotes[0] + teamVotes[1] === 0 ? null : teamVotes[0] >= teamVotes[1] ? 0 : 1;
      // A solo session has one side: its player is on it even when the shirt matched no cluster.
      const team_id: 0 | 1 | null = opts.solo ? 0 : voted;
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
