// Simulates a half-court game as per-frame positions plus the ground-truth event list.
// The simulation is deliberately simple (players glide between spots, the ball follows
// parabolas) but every ground-truth field is produced by the same code that moves the ball,
// so labels and pixels cannot disagree.
import { COURT, FT_LINE_X, HOOP_X, isThreePoint } from "./court.ts";
import { makeRng, type Rng } from "./rng.ts";

export interface GtPlayer {
  id: string;
  team: 0 | 1;
  jersey: string;
  height: number;
}

export interface GtShot {
  release_seconds: number;
  /** When the ball reaches the rim. */
  rim_seconds: number;
  made: boolean;
  points: number;
  is_free_throw: boolean;
  is_three_point: boolean;
  is_fouled: boolean;
  court_position: [number, number];
  shooter: string;
  assister: string | null;
  rebounder: string | null;
}

export interface GameScript {
  fps: number;
  frames: number;
  players: GtPlayer[];
  /** [frame][player] → [x, y] on the floor. */
  playerPos: Float32Array[];
  /** [frame] → ball centre [x, y, z]. */
  ball: Float32Array;
  shots: GtShot[];
}

type V2 = [number, number];
const HAND_Z = 1.1;

export function simulateGame(opts: { seed: number; seconds: number; fps: number; players: number }): GameScript {
  const rng = makeRng(opts.seed);
  const fps = opts.fps;
  const frames = Math.round(opts.seconds * fps);
  const n = Math.max(2, Math.min(10, opts.players));
  const numbers = new Set<number>();
  const players: GtPlayer[] = [];
  for (let i = 0; i < n; i++) {
    let j = rng.int(0, 55);
    while (numbers.has(j)) j = rng.int(0, 55);
    numbers.add(j);
    players.push({ id: `p${i}`, team: (i % 2) as 0 | 1, jersey: String(j), height: rng.range(1.85, 2.05) });
  }
  const pos: V2[] = players.map((_, i) => spot(i % 2 === 0 ? 7.4 : 5.5, -60 + (120 * i) / n));
  const vel: V2[] = players.map(() => [0, 0]);
  const target: V2[] = pos.map((p) => [p[0], p[1]]);
  const playerPos: Float32Array[] = [];
  const ball = new Float32Array(frames * 3);
  const shots: GtShot[] = [];

  let frame = 0;
  let offence: 0 | 1 = 0;
  let holder = 0;
  let ballXYZ: [number, number, number] = [pos[0][0], pos[0][1] - 0.35, HAND_Z];
  let assistCandidate: number | null = null;

  const teamOf = (t: 0 | 1) => players.map((p, i) => (p.team === t ? i : -1)).filter((i) => i >= 0);

  // Offence spreads over distinct spots; each defender shades its man towards the hoop.
  function setFormation(offSpots: Map<number, V2>) {
    for (const [i, s] of offSpots) target[i] = s;
    const off = teamOf(offence);
    const def = teamOf((1 - offence) as 0 | 1);
    def.forEach((d, k) => {
      const man = off[k % off.length];
      const s = offSpots.get(man) ?? pos[man];
      const dx = HOOP_X - s[0], dy = -s[1];
      const l = Math.hypot(dx, dy) || 1;
      // Defenders sag off to one side, so the synthetic footage rarely hides a shooter completely
      // behind a defender (occlusion is a known weakness, see docs/analysis.md).
      target[d] = [s[0] + (dx / l) * 1.6 + (dy / l) * 1.1, s[1] + (dy / l) * 1.6 - (dx / l) * 1.1];
    });
  }
  function spreadOffence(shooterSpot?: { i: number; s: V2 }) {
    const off = teamOf(offence);
    const spots = new Map<number, V2>();
    const angles = off.map((_, k) => -65 + (130 * (k + 0.5)) / off.length + rng.range(-8, 8));
    off.forEach((i, k) => spots.set(i, spot(rng.range(6.9, 7.8), angles[k])));
    if (shooterSpot) spots.set(shooterSpot.i, shooterSpot.s);
    setFormation(spots);
  }

  function step(ballAt: () => [number, number, number]) {
    if (frame >= frames) return false;
    const dt = 1 / fps;
    for (let i = 0; i < n; i++) {
      const dx = target[i][0] - pos[i][0], dy = target[i][1] - pos[i][1];
      const d = Math.hypot(dx, dy);
      const vmax = 4.5;
      // Critically damped approach keeps motion smooth enough for an IoU tracker.
      const want: V2 = d > 0.01 ? [(dx / d) * Math.min(vmax, d * 2), (dy / d) * Math.min(vmax, d * 2)] : [0, 0];
      vel[i][0] += (want[0] - vel[i][0]) * Math.min(1, dt * 6);
      vel[i][1] += (want[1] - vel[i][1]) * Math.min(1, dt * 6);
      pos[i][0] += vel[i][0] * dt;
      pos[i][1] += vel[i][1] * dt;
    }
    // Keep players apart so the synthetic footage does not stack two people in one box.
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const dx = pos[j][0] - pos[i][0], dy = pos[j][1] - pos[i][1];
        const d = Math.hypot(dx, dy);
        if (d < 0.9 && d > 1e-6) {
          const push = (0.9 - d) / 2;
          pos[i][0] -= (dx / d) * push; pos[i][1] -= (dy / d) * push;
          pos[j][0] += (dx / d) * push; pos[j][1] += (dy / d) * push;
        }
      }
    ballXYZ = ballAt();
    const f = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) { f[i * 2] = pos[i][0]; f[i * 2 + 1] = pos[i][1]; }
    playerPos.push(f);
    ball.set(ballXYZ, frame * 3);
    frame++;
    return true;
  }
  const hand = (i: number, z = HAND_Z): [number, number, number] => [pos[i][0], pos[i][1] - 0.4, z];

  function hold(i: number, seconds: number, dribble: boolean) {
    const start = frame;
    const end = frame + Math.round(seconds * fps);
    while (frame < end) {
      const t = (frame - start) / fps;
      if (!step(() => hand(i, dribble ? COURT.ballRadius + (HAND_Z - COURT.ballRadius) * Math.abs(Math.cos(Math.PI * t / 0.55)) : HAND_Z))) return;
    }
  }
  function travel(from: [number, number, number], to: () => [number, number, number], seconds: number, lift: number) {
    const start = frame;
    const count = Math.max(1, Math.round(seconds * fps));
    while (frame < start + count) {
      const s = (frame - start + 1) / count;
      const dst = to();
      if (!step(() => [from[0] + (dst[0] - from[0]) * s, from[1] + (dst[1] - from[1]) * s, from[2] + (dst[2] - from[2]) * s + lift * 4 * s * (1 - s)])) return;
    }
  }
  function pass(from: number, to: number) {
    const d = Math.hypot(pos[to][0] - pos[from][0], pos[to][1] - pos[from][1]);
    travel(hand(from, 1.3), () => hand(to, 1.3), 0.25 + d / 11, 0.25);
    holder = to;
  }
  function bounceAt(p: V2, seconds: number) {
    const start = frame;
    const end = frame + Math.round(seconds * fps);
    while (frame < end) {
      const t = (frame - start) / fps;
      const h = 0.9 * Math.exp(-t * 1.5) * Math.abs(Math.sin(Math.PI * t / 0.45));
      if (!step(() => [p[0], p[1], COURT.ballRadius + h])) return;
    }
  }

  /** Shoots from the holder's spot. Returns the next holder. */
  function shoot(made: boolean, freeThrow: boolean, fouled: boolean, assister: number | null): number | null {
    const s = holder;
    const release = hand(s, 2.35);
    const releaseFrame = frame;
    const dist = Math.hypot(HOOP_X - pos[s][0], pos[s][1]);
    const flight = 0.75 + dist * 0.07;
    const rim: [number, number, number] = [HOOP_X, 0, COURT.rimHeight + 0.1];
    const missDir = rng.range(0, Math.PI * 2);
    const aim: [number, number, number] = made ? rim : [HOOP_X + Math.cos(missDir) * 0.32 - 0.15, Math.sin(missDir) * 0.32, COURT.rimHeight + 0.12];
    const three = !freeThrow && isThreePoint(pos[s][0], pos[s][1]);
    // The defence either goes for the rebound or retreats; the shooter stays put.
    let rebounder: number | null = null;
    let landing: V2 = [HOOP_X - 0.3, 0];
    if (!made) {
      const a = rng.range(-1.2, 1.2) + Math.PI;
      const r = rng.range(2.2, 3.6);
      landing = [HOOP_X + Math.cos(a) * r, Math.sin(a) * r];
      const candidates = players.map((_, i) => i).filter((i) => i !== s);
      rebounder = candidates.reduce((best, i) => (Math.hypot(pos[i][0] - landing[0], pos[i][1] - landing[1]) + (players[i].team === offence ? 1.5 : 0) < Math.hypot(pos[best][0] - landing[0], pos[best][1] - landing[1]) + (players[best].team === offence ? 1.5 : 0) ? i : best), candidates[0]);
      if (rng.chance(0.3)) rebounder = rng.pick(candidates);
    }
    shots.push({
      release_seconds: releaseFrame / fps,
      rim_seconds: (releaseFrame + Math.round(flight * fps)) / fps,
      made,
      points: made ? (freeThrow ? 1 : three ? 3 : 2) : 0,
      is_free_throw: freeThrow,
      is_three_point: three,
      is_fouled: fouled,
      court_position: [pos[s][0], pos[s][1]],
      shooter: players[s].id,
      assister: made && !freeThrow && assister !== null ? players[assister].id : null,
      rebounder: rebounder !== null ? players[rebounder].id : null,
    });
    travel(release, () => aim, flight, 1.2 + dist * 0.12);
    if (made) {
      travel(aim, () => [HOOP_X, 0, COURT.ballRadius], 0.45, 0);
      const taker = rng.pick(teamOf((1 - players[s].team) as 0 | 1));
      target[taker] = [HOOP_X - 0.8, 0.4];
      bounceAt([HOOP_X - 0.3, 0], 1.0);
      travel(ballXYZ, () => hand(taker), 0.4, 0.1);
      return taker;
    }
    if (rebounder !== null) target[rebounder] = landing;
    travel(aim, () => [landing[0], landing[1], COURT.ballRadius], 0.8, 1.0);
    // Bounce until the rebounder is there (bounded so a slow player cannot stall the game).
    const start = frame;
    while (frame < start + 2.5 * fps && rebounder !== null && Math.hypot(pos[rebounder][0] - landing[0], pos[rebounder][1] - landing[1]) > 0.5) bounceAt(landing, 1 / fps);
    if (rebounder !== null) travel(ballXYZ, () => hand(rebounder!), 0.25, 0.1);
    return rebounder;
  }

  spreadOffence();
  hold(holder, 1.0, true);
  while (frame < frames - 4 * fps) {
    // A possession: a dribble, 0-2 passes, a shot.
    spreadOffence();
    hold(holder, rng.range(0.8, 1.5), true);
    const off = teamOf(offence);
    const passes = off.length > 1 ? rng.int(0, 2) : 0;
    assistCandidate = null;
    for (let k = 0; k < passes; k++) {
      const to = rng.pick(off.filter((i) => i !== holder));
      const from = holder;
      pass(from, to);
      assistCandidate = from;
      hold(holder, rng.range(0.5, 0.9), false);
    }
    // The shooter moves to a 2 or 3 point spot away from the free-throw spot, so a jumper
    // and a free throw are never taken from the same place.
    const three = rng.chance(0.45);
    const angle = three ? rng.range(-70, 70) : rng.pick([-1, 1]) * rng.range(35, 75);
    const sp = spot(three ? rng.range(7.3, 7.9) : rng.range(3.2, 5.2), angle);
    if (three && Math.abs(sp[1]) > 6.4) sp[1] = Math.sign(sp[1]) * 6.2;
    spreadOffence({ i: holder, s: sp });
    hold(holder, 1.3, true);
    while (Math.hypot(pos[holder][0] - sp[0], pos[holder][1] - sp[1]) > 0.3 && frame < frames) hold(holder, 0.1, true);
    hold(holder, 0.3, false);
    if (frame >= frames - 3 * fps) break;
    const made = rng.chance(0.55);
    const fouled = made && rng.chance(0.15);
    const shooter = holder;
    const next = shoot(made, false, fouled, passes > 0 ? assistCandidate : null);
    if (fouled && frame < frames - 8 * fps) {
      // And-one: the shooter takes one free throw while everyone else lines the lane.
      holder = shooter;
      freeThrowFormation(shooter);
      travel(ballXYZ, () => hand(shooter), 0.6, 0.3);
      hold(shooter, 2.0, false);
      while (Math.hypot(pos[shooter][0] - (FT_LINE_X - 0.3), pos[shooter][1]) > 0.25 && frame < frames) hold(shooter, 0.1, false);
      hold(shooter, 0.5, false);
      const ftMade = rng.chance(0.7);
      const after = shoot(ftMade, true, false, null);
      holder = after ?? rng.pick(teamOf((1 - players[shooter].team) as 0 | 1));
      offence = players[holder].team;
      continue;
    }
    if (next === null) {
      holder = rng.pick(teamOf((1 - offence) as 0 | 1));
      offence = players[holder].team;
    } else {
      holder = next;
      offence = players[next].team;
    }
  }
  while (frame < frames) hold(holder, 1 / fps, true);

  return { fps, frames, players, playerPos, ball, shots };

  function freeThrowFormation(shooter: number) {
    target[shooter] = [FT_LINE_X - 0.3, 0];
    const others = players.map((_, i) => i).filter((i) => i !== shooter);
    others.forEach((i, k) => {
      const side = k % 2 === 0 ? 1 : -1;
      const slot = Math.floor(k / 2);
      target[i] = slot < 3 ? [HOOP_X - 0.5 - slot * 1.3, side * (COURT.keyWidth / 2 + 0.5)] : [FT_LINE_X - 3 - slot * 0.3, side * 4];
    });
  }
}

function spot(r: number, angleDeg: number): V2 {
  const a = (angleDeg * Math.PI) / 180;
  return [HOOP_X - r * Math.cos(a), r * Math.sin(a)];
}
