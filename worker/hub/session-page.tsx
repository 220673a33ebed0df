/** @jsxImportSource hono/jsx */
// The session hub page in its three shapes: in progress (refreshes itself), processed (the game),
// failed (what happened and what to do next).
import type { HubView } from "../services/hub";
import { BoxScores } from "./box-scores";
import { Page } from "./layout";
import { ShotChart } from "./shot-chart";
import { clock, describeShot, FAILURE_WORDS, KIND_WORDS, playerName, resultWord, shotKind, stageWords, utcDate } from "./words";

/** How often a page of a session in progress reloads itself. */
export const PROGRESS_REFRESH_SECONDS = 10;

const STATUS_WORDS = { queued: "Queued", processing: "Processing", processed: "Ready", failed: "Failed" } as const;

function Header(props: { view: HubView }) {
  const { session, title, teams, unattributed } = props.view;
  const facts = [`Submitted ${utcDate(session.created)}`];
  if (session.durationSeconds) facts.push(`${clock(session.durationSeconds)} of video`);
  return (
    <header class="top">
      <div class="wrap">
        <h1>{title}</h1>
        <p>
          <span class={`badge ${session.status}`} id="status">{STATUS_WORDS[session.status]}</span> {facts.join(" · ")}
        </p>
        {session.status === "processed" && (teams.length > 0 || unattributed.points > 0) ? (
          <p class="score" aria-label="Score">
            {teams.map((t) => (
              <span>
                {t.name} {t.totals.points}
              </span>
            ))}
            {/* Points nobody was credited with still count in the game's total: without them a page
                showing "One team 2" beside 4 points made would not add up. */}
            {unattributed.points > 0 ? <span class="unattributed">Scorer not identified {unattributed.points}</span> : null}
          </p>
        ) : null}
      </div>
    </header>
  );
}

function Footer(props: { view: HubView; linkExpires: number }) {
  return (
    <footer class="muted small">
      <p>
        Session <code>{props.view.session.id}</code>. This link works until {utcDate(props.linkExpires)}. Times are positions in the video (minutes:seconds).
      </p>
    </footer>
  );
}

function InProgress(props: { view: HubView }) {
  const { session, progress } = props.view;
  const percent = session.status === "queued" ? 0 : Math.max(0, Math.min(100, progress?.percent ?? 0));
  const stage = session.status === "queued" ? "Waiting for a free analysis machine" : stageWords(progress?.stage ?? null);
  return (
    <section class="card" id="progress" aria-live="polite">
      <h2>{session.status === "queued" ? "Waiting to start" : "Analysing the game"}</h2>
      <p>
        <label for="progress-bar">{stage}</label>
      </p>
      <progress id="progress-bar" max="100" value={String(percent)}>
        {percent}%
      </progress>
      <p class="muted small">
        {percent}% done. Processing takes minutes to an hour depending on the video's length. This page refreshes by itself every {PROGRESS_REFRESH_SECONDS} seconds;{" "}
        <a href="">refresh now</a>.
      </p>
    </section>
  );
}

function Failed(props: { view: HubView }) {
  const { session } = props.view;
  const code = session.errorCode && FAILURE_WORDS[session.errorCode] ? session.errorCode : "unknown";
  const words = FAILURE_WORDS[code];
  return (
    <section class="card" id="failure">
      <h2>This video could not be analysed</h2>
      <p id="failure-what">{words.what}</p>
      <h3>What to do next</h3>
      <p id="failure-next">{words.next}</p>
      <p>Nothing was charged for this session: the credit held for it was released.</p>
      <dl class="facts small">
        <dt>Error code</dt>
        <dd>
          <code>{code}</code>
        </dd>
        <dt>Details</dt>
        <dd>{session.errorMessage ?? "none"}</dd>
        <dt>Session</dt>
        <dd>
          <code>{session.id}</code>
        </dd>
      </dl>
    </section>
  );
}

function Processed(props: { view: HubView }) {
  const { view } = props;
  const players = new Map(view.players.map((p) => [p.id, p]));
  const withClips = view.shots.filter((s) => view.clips.has(s.id));
  const made = view.shots.filter((s) => s.made === true).length;
  const firstClip = withClips.length > 0 ? view.clips.get(withClips[0].id) : undefined;
  return (
    <>
      <section class="card" id="game">
        <h2>Game video</h2>
        {view.renditions.length > 0 ? (
          <>
            <video id="game-video" controls preload="metadata" playsinline src={view.renditions[0].url} poster={view.poster ?? undefined}>
              <a href={view.renditions[0].url}>Download the game video</a>
            </video>
            {view.renditions.length > 1 ? (
              <p class="row">
                <label for="quality">Quality</label>
                <select id="quality">
                  {view.renditions.map((r, i) => (
                    <option value={r.url} selected={i === 0}>
                      {r.label}
                    </option>
                  ))}
                </select>
              </p>
            ) : null}
          </>
        ) : (
          <p class="muted">No playable video was kept for this session.</p>
        )}
      </section>

      <section class="card" id="highlights">
        <h2>Highlights</h2>
        <p class="muted small">
          {view.shots.length} shots, {made} made. Choose a shot to play its clip.
        </p>
        {withClips.length > 0 ? (
          <>
            <video id="clip-video" controls preload="none" playsinline poster={firstClip?.preview ?? undefined}></video>
            <p id="clip-caption" aria-live="polite" class="small">
              Choose a shot below, or play them all.
            </p>
            <p class="row">
              <button type="button" class="primary" id="play-all">
                Play all highlights
              </button>
              <button type="button" id="clip-in-game" hidden>
                Show this moment in the game video
              </button>
            </p>
          </>
        ) : null}
        <ol class="reel">
          {view.shots.map((s) => {
            const clip = view.clips.get(s.id);
            const label = describeShot(s, players);
            const scorer = s.players.scorer ? playerName(players.get(s.players.scorer)) : "Scorer not identified";
            const inner = (
              <>
                {clip?.preview ? <img src={clip.preview} alt="" loading="lazy" width="72" height="40" /> : null}
                <span>
                  <span class="t">{clock(s.start_seconds)}</span> {KIND_WORDS[shotKind(s)]}, <span class={s.made ? "made-word" : "missed-word"}>{resultWord(s)}</span>
                  <span class="what small muted">{scorer}</span>
                </span>
              </>
            );
            return (
              <li>
                {clip ? (
                  <a href={clip.url} data-clip={clip.url} data-shot={s.id} data-label={label} data-poster={clip.preview ?? ""} data-start={String(s.start_seconds ?? 0)}>
                    {inner}
                  </a>
                ) : (
                  <span class="noclip" data-shot={s.id} title="No clip was cut for this shot">
                    {inner}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      </section>

      <section class="card" id="chart">
        <h2>Shot chart</h2>
        <ShotChart shots={view.shots} players={players} clips={view.clips} court={view.court} />
      </section>

      <section class="card" id="box">
        <h2>Box score</h2>
        <BoxScores teams={view.teams} totals={view.totals} unattributed={view.unattributed} />
      </section>
    </>
  );
}

export function SessionPage(props: { view: HubView; linkExpires: number }) {
  const { view } = props;
  const inProgress = view.session.status === "queued" || view.session.status === "processing";
  return (
    <Page title={`${view.title} · ${STATUS_WORDS[view.session.status]}`} refreshSeconds={inProgress ? PROGRESS_REFRESH_SECONDS : undefined}>
      <Header view={view} />
      <main id="main">
        {inProgress ? <InProgress view={view} /> : view.session.status === "failed" ? <Failed view={view} /> : <Processed view={view} />}
      </main>
      <Footer view={view} linkExpires={props.linkExpires} />
    </Page>
  );
}
