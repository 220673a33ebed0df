/** @jsxImportSource hono/jsx */
// Box scores: one table per team (its players with roster names, and the team's totals), then the
// game's totals, which also count shots credited to nobody.
import type { BoxScore } from "../../contract/box-score";
import type { HubTeam } from "../services/hub";
import { playerName } from "./words";

const made = (m: number, a: number) => `${m}-${a}`;

function Cells(props: { s: BoxScore }) {
  const { s } = props;
  return (
    <>
      <td>{s.points}</td>
      <td>{made(s.fg_2pt_make, s.fg_2pt_att)}</td>
      <td>{made(s.fg_3pt_make, s.fg_3pt_att)}</td>
      <td>{made(s.ft_make, s.ft_att)}</td>
      <td>{s.assist}</td>
      <td>{s.rebound}</td>
    </>
  );
}

function Head(props: { first: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{props.first}</th>
        <th scope="col"><abbr title="Points">PTS</abbr></th>
        <th scope="col"><abbr title="2-point field goals made-attempted">2PT</abbr></th>
        <th scope="col"><abbr title="3-point field goals made-attempted">3PT</abbr></th>
        <th scope="col"><abbr title="Free throws made-attempted">FT</abbr></th>
        <th scope="col"><abbr title="Assists">AST</abbr></th>
        <th scope="col"><abbr title="Rebounds">REB</abbr></th>
      </tr>
    </thead>
  );
}

export function BoxScores(props: { teams: HubTeam[]; totals: BoxScore; unattributed: BoxScore }) {
  const { teams, totals, unattributed } = props;
  const anyUnattributed = Object.values(unattributed).some((v) => v > 0);
  return (
    <>
      {teams.map((team) => (
        <div class="tablewrap">
          <table class="box-score" data-team={team.id === null ? "none" : String(team.id)}>
            <caption>{team.name}</caption>
            <Head first="Player" />
            <tbody>
              {team.players.map((p) => (
                <tr data-player={p.id}>
                  <th scope="row">{playerName(p)}</th>
                  <Cells s={p.stats} />
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Team total</th>
                <Cells s={team.totals} />
              </tr>
            </tfoot>
          </table>
        </div>
      ))}
      <div class="tablewrap">
        <table class="box-score" id="game-totals">
          <caption>Game totals</caption>
          <Head first="" />
          <tbody>
            {teams.map((team) => (
              <tr>
                <th scope="row">{team.name}</th>
                <Cells s={team.totals} />
              </tr>
            ))}
            {anyUnattributed ? (
              <tr>
                <th scope="row">Scorer not identified</th>
                <Cells s={unattributed} />
              </tr>
            ) : null}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All shots</th>
              <Cells s={totals} />
            </tr>
          </tfoot>
        </table>
      </div>
      <p class="muted small">
        Players are told apart by jersey number, or by appearance when numbers cannot be read, so one person is sometimes split in two. Made-attempted
        counts (2-3 = 2 made of 3).
      </p>
    </>
  );
}
