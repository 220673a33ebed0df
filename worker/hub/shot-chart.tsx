/** @jsxImportSource hono/jsx */
// The shot chart: a half court of the type the shots were measured on (contract/court-types.ts;
// FIBA when no court was registered), drawn in SVG in metres (its width across, its half length
// from the baseline, baseline at the top), with one marker per shot at
// `location.shot_world_normed` ([across / width, from the baseline / half length]). Made shots are
// filled dots, missed ones crosses; the colour says 2-pointer, 3-pointer or free throw. Above it, the
// court type and how it was found. Shots without a court position (the court's lines were not
// registered near them) are listed beside the chart instead of being dropped, with a word that
// their 2 or 3 is an estimate.
import { COURT_TEMPLATES, type CourtTemplate } from "../../contract/court-types";
import type { Player, Shot } from "../schemas/sessions";
import type { HubClip, HubCourt } from "../services/hub";
import { courtWords, describeShot, KIND_WORDS, shotKind, type ShotKind } from "./words";

const KIND_CLASS: Record<ShotKind, string> = { "2": "k2", "3": "k3", ft: "kft", fg: "kfg" };
/** The ring's radius and the backboard's distance in front of the basket's centre (every rule book alike, to the centimetre). */
const RIM_RADIUS = 0.225;
const BOARD_TO_BASKET = 0.375;

function CourtLines(props: { t: CourtTemplate }) {
  const { t } = props;
  const f = (n: number) => n.toFixed(3);
  const cx = t.width / 2;
  const kb = t.keyWidthBaseline / 2, kf = t.keyWidthFreeThrow / 2, ft = t.freeThrowFromBaseline;
  // The three-point line: straight in the corners up to where they meet the arc, then the arc.
  const c = t.threeCornerOffset;
  const breakY = t.basketFromBaseline + Math.sqrt(Math.max(0, t.threeRadius ** 2 - c ** 2));
  const r = t.restrictedArcRadius;
  return (
    <g class="lines" aria-hidden="true">
      <rect x="0" y="0" width={f(t.width)} height={f(t.halfLength)} />
      {/* The key (a trapezoid on the pre-2010 FIBA court), the free-throw circle and the restricted area. */}
      <path d={`M${f(cx - kb)},0 L${f(cx - kf)},${f(ft)} L${f(cx + kf)},${f(ft)} L${f(cx + kb)},0`} />
      <circle cx={f(cx)} cy={f(ft)} r={f(t.freeThrowCircleRadius)} />
      {r ? <path d={`M${f(cx - r)},${f(t.basketFromBaseline)} A${f(r)},${f(r)} 0 0 0 ${f(cx + r)},${f(t.basketFromBaseline)}`} /> : null}
      <path d={`M${f(cx - c)},0 L${f(cx - c)},${f(breakY)} A${f(t.threeRadius)},${f(t.threeRadius)} 0 0 0 ${f(cx + c)},${f(breakY)} L${f(cx + c)},0`} />
      {/* Half-court line and the centre circle's half. */}
      <path d={`M${f(cx - t.freeThrowCircleRadius)},${f(t.halfLength)} A${f(t.freeThrowCircleRadius)},${f(t.freeThrowCircleRadius)} 0 0 1 ${f(cx + t.freeThrowCircleRadius)},${f(t.halfLength)}`} />
    </g>
  );
}

function Mark(props: { made: boolean }) {
  return props.made ? <circle class="mark" r="0.3" /> : <path class="mark" d="M-0.25,-0.25 L0.25,0.25 M-0.25,0.25 L0.25,-0.25" />;
}

function ShotMarker(props: { shot: Shot; point: number[]; t: CourtTemplate; label: string; clip: HubClip | undefined }) {
  const { shot, point, t, label, clip } = props;
  const x = (point[0] * t.width).toFixed(3);
  const y = (point[1] * t.halfLength).toFixed(3);
  const made = shot.made === true;
  const cls = `shot ${made ? "made" : "missed"} ${KIND_CLASS[shotKind(shot)]}`;
  const body = (
    <>
      <title>{label}</title>
      <circle class="hit" r="0.5" />
      <circle class="ring" r="0.45" />
      <Mark made={made} />
    </>
  );
  // With a clip the marker is a link (keyboard and screen readers know links; the script plays the
  // clip in place); without one it is a focusable group that shows its details.
  return clip ? (
    <a class={cls} href={clip.url} transform={`translate(${x} ${y})`} aria-label={`${label}. Play the clip.`} data-shot={shot.id} data-label={label}
      data-clip={clip.url} data-poster={clip.preview ?? ""} data-start={String(shot.start_seconds ?? 0)}>
      {body}
    </a>
  ) : (
    <g class={cls} transform={`translate(${x} ${y})`} tabindex="0" role="img" aria-label={label} data-shot={shot.id} data-label={label}>
      {body}
    </g>
  );
}

function LegendIcon(props: { made: boolean; kind: ShotKind }) {
  return (
    <svg viewBox="-0.5 -0.5 1 1" aria-hidden="true" class={`shot ${props.made ? "made" : "missed"} ${KIND_CLASS[props.kind]}`}>
      <Mark made={props.made} />
    </svg>
  );
}

export function ShotChart(props: { shots: Shot[]; players: Map<string, Player>; clips: Map<string, HubClip>; court: HubCourt | null }) {
  const t = COURT_TEMPLATES[props.court?.type ?? "fiba"];
  const cx = (t.width / 2).toFixed(3);
  const placed = props.shots.filter((s) => Array.isArray(s.location.shot_world_normed) && s.location.shot_world_normed.length >= 2);
  const unplaced = props.shots.filter((s) => !placed.includes(s));
  const made = placed.filter((s) => s.made === true).length;
  return (
    <div class="chart-layout">
      <div>
        <p id="court-type" data-court={props.court?.type ?? "none"}>
          {courtWords(props.court)}
        </p>
        <svg class="court" viewBox={`-0.6 -0.6 ${(t.width + 1.2).toFixed(3)} ${(t.halfLength + 1.2).toFixed(3)}`} role="group" aria-labelledby="chart-title chart-summary" id="shot-chart">
          <title id="chart-title">Shot chart</title>
          <desc id="chart-summary">{`${placed.length} shots placed on the half court: ${made} made, ${placed.length - made} missed. The hoop is at the top.`}</desc>
          <CourtLines t={t} />
          <line class="board" x1={(t.width / 2 - 0.9).toFixed(3)} y1={(t.basketFromBaseline - BOARD_TO_BASKET).toFixed(3)} x2={(t.width / 2 + 0.9).toFixed(3)} y2={(t.basketFromBaseline - BOARD_TO_BASKET).toFixed(3)} aria-hidden="true" />
          <circle class="rim" cx={cx} cy={t.basketFromBaseline.toFixed(3)} r={String(RIM_RADIUS)} aria-hidden="true" />
          {placed.map((s) => (
            <ShotMarker shot={s} point={s.location.shot_world_normed!} t={t} label={describeShot(s, props.players)} clip={props.clips.get(s.id)} />
          ))}
        </svg>
        <p id="shot-detail" aria-live="polite">
          Hover, tap or tab to a shot to see its time, scorer and points; open it to play its clip.
        </p>
        <ul class="legend" aria-label="Legend">
          <li><LegendIcon made={true} kind="2" /> made</li>
          <li><LegendIcon made={false} kind="2" /> missed</li>
          <li><span class="k2">■</span> {KIND_WORDS["2"]}</li>
          <li><span class="k3">■</span> {KIND_WORDS["3"]}</li>
          <li><span class="kft">■</span> {KIND_WORDS.ft}</li>
        </ul>
      </div>
      <div class="unplaced" id="unplaced-shots">
        <h3>Shots not on the chart</h3>
        {unplaced.length === 0 ? (
          <p class="muted small">Every shot has a position on the court.</p>
        ) : (
          <>
            <p class="muted small">
              {props.court?.foundBy
                ? "The court was found at other moments of the video, but not around these shots"
                : "The court's painted lines were not found near these shots"}
              , so where they were taken from is unknown and their points
              are estimated from the shooter's distance to the hoop: 2 or 3, or 1 for a free throw when the shooter stood still at the
              free-throw distance before the shot. The estimate can be a metre off, and has counted a corner three as a 2, so a shot
              from just beyond the three-point line may be counted as a 2. They count in every total.
            </p>
            <ul>
              {unplaced.map((s) => {
                const label = describeShot(s, props.players);
                const clip = props.clips.get(s.id);
                return (
                  <li class={`shot ${s.made === true ? "made" : "missed"}`} data-shot={s.id} data-label={label}>
                    {clip ? (
                      <a href={clip.url} data-clip={clip.url} data-shot={s.id} data-label={label} data-poster={clip.preview ?? ""} data-start={String(s.start_seconds ?? 0)}>
                        {label}
                      </a>
                    ) : (
                      label
                    )}
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}
