/** @jsxImportSource hono/jsx */
// The shot chart: a FIBA half court drawn in SVG, in metres (15 m across, 14 m from the baseline,
// baseline at the top), with one marker per shot at `location.shot_world_normed`
// ([across / 15 m, from the baseline / 14 m]). Made shots are filled dots, missed ones crosses;
// the colour says 2-pointer, 3-pointer or free throw. Shots without a court position (the court's
// lines were not registered near them) are listed beside the chart instead of being dropped, with
// a word that their 2 or 3 is an estimate.
import type { Player, Shot } from "../schemas/sessions";
import type { HubClip } from "../services/hub";
import { describeShot, KIND_WORDS, shotKind, type ShotKind } from "./words";

const WIDTH = 15;
const LENGTH = 14;
const HOOP_Y = 1.575;
const CENTER_X = WIDTH / 2;
/** Where the 6.75 m arc meets the straight corner lines 0.9 m inside the sidelines. */
const CORNER_Y = HOOP_Y + Math.sqrt(6.75 ** 2 - (CENTER_X - 0.9) ** 2);

const KIND_CLASS: Record<ShotKind, string> = { "2": "k2", "3": "k3", ft: "kft", fg: "kfg" };

function CourtLines() {
  const f = (n: number) => n.toFixed(3);
  return (
    <g class="lines" aria-hidden="true">
      <rect x="0" y="0" width={WIDTH} height={LENGTH} />
      {/* The key (4.9 m × 5.8 m), the free-throw circle and the restricted area. */}
      <rect x={CENTER_X - 2.45} y="0" width="4.9" height="5.8" />
      <circle cx={CENTER_X} cy="5.8" r="1.8" />
      <path d={`M${CENTER_X - 1.25},${HOOP_Y} A1.25,1.25 0 0 0 ${CENTER_X + 1.25},${HOOP_Y}`} />
      {/* The three-point line: straight in the corners, then the 6.75 m arc. */}
      <path d={`M0.9,0 L0.9,${f(CORNER_Y)} A6.75,6.75 0 0 0 ${WIDTH - 0.9},${f(CORNER_Y)} L${WIDTH - 0.9},0`} />
      {/* Half-court line and the centre circle's half. */}
      <path d={`M${CENTER_X - 1.8},${LENGTH} A1.8,1.8 0 0 1 ${CENTER_X + 1.8},${LENGTH}`} />
    </g>
  );
}

function Mark(props: { made: boolean }) {
  return props.made ? <circle class="mark" r="0.3" /> : <path class="mark" d="M-0.25,-0.25 L0.25,0.25 M-0.25,0.25 L0.25,-0.25" />;
}

function ShotMarker(props: { shot: Shot; point: number[]; label: string; clip: HubClip | undefined }) {
  const { shot, point, label, clip } = props;
  const x = (point[0] * WIDTH).toFixed(3);
  const y = (point[1] * LENGTH).toFixed(3);
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

export function ShotChart(props: { shots: Shot[]; players: Map<string, Player>; clips: Map<string, HubClip> }) {
  const placed = props.shots.filter((s) => Array.isArray(s.location.shot_world_normed) && s.location.shot_world_normed.length >= 2);
  const unplaced = props.shots.filter((s) => !placed.includes(s));
  const made = placed.filter((s) => s.made === true).length;
  return (
    <div class="chart-layout">
      <div>
        <svg class="court" viewBox={`-0.6 -0.6 ${WIDTH + 1.2} ${LENGTH + 1.2}`} role="group" aria-labelledby="chart-title chart-summary" id="shot-chart">
          <title id="chart-title">Shot chart</title>
          <desc id="chart-summary">{`${placed.length} shots placed on the half court: ${made} made, ${placed.length - made} missed. The hoop is at the top.`}</desc>
          <CourtLines />
          <line class="board" x1={CENTER_X - 0.9} y1="1.2" x2={CENTER_X + 0.9} y2="1.2" aria-hidden="true" />
          <circle class="rim" cx={CENTER_X} cy={HOOP_Y} r="0.225" aria-hidden="true" />
          {placed.map((s) => (
            <ShotMarker shot={s} point={s.location.shot_world_normed!} label={describeShot(s, props.players)} clip={props.clips.get(s.id)} />
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
              The court's painted lines were not found near these shots, so where they were taken from is unknown and their 2 or 3 points
              are estimated from the shooter's distance to the hoop. They count in every total.
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
