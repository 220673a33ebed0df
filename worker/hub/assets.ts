// The hub page's stylesheet and script, served by the Worker itself at content-hashed paths
// (`/hub/assets/hub-<hash>.css`), so browsers cache them for a year and a deploy that changes them
// changes the path. No fonts: the system font stack reads well everywhere and costs nothing.
// The script only adds comfort (play clips in place, hover details, quality switch); every clip is
// a plain link, so the page works without it.

const HUB_CSS = `
:root { color-scheme: light; --ink: #14161a; --muted: #5b6270; --line: #d9dde3; --bg: #f5f6f8; --card: #fff;
  --accent: #c2410c; --made: #15803d; --missed: #b91c1c; --k2: #1d4ed8; --k3: #b45309; --kft: #7e22ce; --kfg: #475569; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--bg); overflow-wrap: anywhere; }
a { color: var(--k2); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; background: var(--card); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; top: .5rem; }
header.top { background: #111827; color: #fff; padding: 1rem; }
header.top .wrap, main .wrap { max-width: 1100px; margin: 0 auto; }
header.top h1 { margin: 0; font-size: 1.5rem; line-height: 1.2; }
header.top p { margin: .25rem 0 0; color: #d1d5db; }
.score { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin-top: .5rem; font-size: 1.125rem; font-weight: 600; }
.score .unattributed { font-weight: 400; }
.badge { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .85rem; font-weight: 600; background: #e5e7eb; color: #111827; }
.badge.processed { background: #dcfce7; color: #14532d; }
.badge.failed { background: #fee2e2; color: #7f1d1d; }
.badge.processing, .badge.queued { background: #fef3c7; color: #78350f; }
main { padding: 1rem; }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1rem; margin: 0 auto 1rem; max-width: 1100px; }
section.card h2 { margin: 0 0 .75rem; font-size: 1.25rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .5rem; }
video { display: block; width: 100%; height: auto; max-height: 70vh; background: #000; border-radius: 8px; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-top: .5rem; }
button, select, .button { font: inherit; font-size: .95rem; padding: .4rem .8rem; border-radius: 8px; border: 1px solid var(--line);
  background: var(--card); color: var(--ink); cursor: pointer; min-height: 44px; }
button.primary { background: var(--ink); color: #fff; border-color: var(--ink); }
.muted { color: var(--muted); }
.small { font-size: .875rem; }
.reel { list-style: none; margin: .75rem 0 0; padding: 0; display: grid; gap: .5rem; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
.reel a, .reel span.noclip { display: flex; gap: .6rem; align-items: center; padding: .5rem; border: 1px solid var(--line); border-radius: 8px;
  text-decoration: none; color: var(--ink); min-height: 44px; }
.reel a:hover { background: #f3f4f6; }
.reel a.current { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent) inset; }
.reel img { width: 72px; height: 40px; object-fit: cover; border-radius: 4px; flex: none; background: #ddd; }
.reel .t { font-variant-numeric: tabular-nums; font-weight: 600; }
.reel .what { display: block; }
.made-word { color: var(--made); font-weight: 600; }
.missed-word { color: var(--missed); font-weight: 600; }
.chart-layout { display: grid; gap: 1rem; grid-template-columns: 1fr; }
@media (min-width: 760px) { .chart-layout { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); } }
svg.court { display: block; width: 100%; max-width: 560px; height: auto; margin: 0 auto; background: #f3e3c3; border-radius: 8px; }
svg.court .lines { fill: none; stroke: #fff; stroke-width: .08; }
svg.court .rim { fill: none; stroke: #c2410c; stroke-width: .07; }
svg.court .board { stroke: #374151; stroke-width: .1; }
.shot { cursor: pointer; outline: none; }
.shot .hit { fill: transparent; stroke: none; }
.shot .mark { stroke-width: .12; }
.shot.made .mark { fill: currentColor; stroke: #fff; stroke-width: .06; }
.shot.missed .mark { fill: none; stroke: currentColor; stroke-linecap: round; }
.shot .ring { fill: none; stroke: none; stroke-width: .08; }
.shot:focus-visible .ring, .shot:hover .ring, .shot.current .ring { stroke: var(--ink); }
.k2 { color: var(--k2); } .k3 { color: var(--k3); } .kft { color: var(--kft); } .kfg { color: var(--kfg); }
#shot-detail { min-height: 3em; margin: .5rem 0 0; padding: .5rem .75rem; border-radius: 8px; background: #f3f4f6; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .5rem 0 0; padding: 0; list-style: none; font-size: .875rem; }
.legend svg { width: 1em; height: 1em; vertical-align: -.15em; }
.unplaced ul { margin: 0; padding-left: 1.1rem; }
.unplaced li { margin: .25rem 0; }
.tablewrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; font-size: .9rem; }
th, td { padding: .35rem .4rem; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; overflow-wrap: normal; }
@media (max-width: 480px) { table { font-size: .8rem; } th, td { padding: .3rem .2rem; } section.card { padding: .75rem; } main { padding: .75rem; } }
thead th { font-size: .8rem; color: var(--muted); font-weight: 600; }
tfoot td, tfoot th { font-weight: 700; border-top: 2px solid var(--ink); }
caption { text-align: left; font-weight: 700; padding: .25rem 0; }
progress { width: 100%; height: 1rem; }
.message { max-width: 40rem; margin: 2rem auto; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem; }
.message h1 { margin-top: 0; font-size: 1.4rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .5rem 0 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
footer { max-width: 1100px; margin: 0 auto; padding: 0 1rem 2rem; }
code { font-size: .9em; background: #f3f4f6; padding: .05rem .3rem; border-radius: 4px; }
`;

const HUB_JS = `"use strict";
(function () {
  var clip = document.getElementById("clip-video");
  var caption = document.getElementById("clip-caption");
  var detail = document.getElementById("shot-detail");
  var game = document.getElementById("game-video");
  var quality = document.getElementById("quality");
  var inGame = document.getElementById("clip-in-game");
  var playAll = document.getElementById("play-all");
  var reel = Array.prototype.slice.call(document.querySelectorAll(".reel a[data-clip]"));
  var current = null;
  var playingAll = false;

  function closest(target, selector) {
    return target && target.closest ? target.closest(selector) : null;
  }
  function showDetail(el) {
    if (detail && el && el.getAttribute("data-label")) detail.textContent = el.getAttribute("data-label");
  }
  function markCurrent(shotId) {
    var marked = document.querySelectorAll("[data-shot]");
    for (var i = 0; i < marked.length; i++) {
      var on = marked[i].getAttribute("data-shot") === shotId;
      marked[i].classList.toggle("current", on);
      if (marked[i].closest(".reel")) {
        if (on) marked[i].setAttribute("aria-current", "true"); else marked[i].removeAttribute("aria-current");
      }
    }
  }
  function playClip(el) {
    if (!clip) return;
    current = el.getAttribute("data-shot");
    clip.src = el.getAttribute("data-clip");
    var poster = el.getAttribute("data-poster");
    if (poster) clip.setAttribute("poster", poster); else clip.removeAttribute("poster");
    if (caption) caption.textContent = "Now playing: " + el.getAttribute("data-label");
    if (inGame) {
      inGame.hidden = !game;
      inGame.setAttribute("data-start", el.getAttribute("data-start") || "0");
    }
    markCurrent(current);
    var started = clip.play();
    if (started && started.catch) started.catch(function () {});
  }

  document.addEventListener("click", function (event) {
    var el = closest(event.target, "[data-clip]");
    if (el) {
      event.preventDefault();
      playingAll = false;
      showDetail(el);
      playClip(el);
      if (closest(el, "svg") && clip && clip.scrollIntoView) clip.scrollIntoView({ block: "nearest", behavior: "smooth" });
      return;
    }
    var shot = closest(event.target, ".shot");
    if (shot) showDetail(shot);
  });
  document.addEventListener("mouseover", function (event) { showDetail(closest(event.target, ".shot")); });
  document.addEventListener("focusin", function (event) { showDetail(closest(event.target, ".shot")); });
  document.addEventListener("keydown", function (event) {
    // Markers without a clip are focusable groups, not links: Enter or Space shows their details.
    var shot = closest(event.target, "g.shot[tabindex]");
    if (shot && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); showDetail(shot); }
  });

  if (playAll && clip) {
    playAll.addEventListener("click", function () {
      if (!reel.length) return;
      playingAll = true;
      showDetail(reel[0]);
      playClip(reel[0]);
    });
    clip.addEventListener("ended", function () {
      if (!playingAll) return;
      var at = -1;
      for (var i = 0; i < reel.length; i++) if (reel[i].getAttribute("data-shot") === current) at = i;
      if (at >= 0 && at + 1 < reel.length) playClip(reel[at + 1]); else playingAll = false;
    });
  }

  if (inGame && game) {
    inGame.addEventListener("click", function () {
      var start = Number(inGame.getAttribute("data-start") || "0");
      if (clip) clip.pause();
      game.currentTime = Math.max(0, start - 3);
      var started = game.play();
      if (started && started.catch) started.catch(function () {});
      if (game.scrollIntoView) game.scrollIntoView({ block: "nearest", behavior: "smooth" });
    });
  }

  if (quality && game) {
    quality.addEventListener("change", function () {
      var at = game.currentTime;
      var wasPlaying = !game.paused;
      game.src = quality.value;
      game.addEventListener("loadedmetadata", function restore() {
        game.removeEventListener("loadedmetadata", restore);
        game.currentTime = at;
        if (wasPlaying) game.play();
      });
    });
  }
})();
`;

/** A basketball: the icon of the hub pages and the API references. */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="#e8742a" stroke="#1f2937" stroke-width="3"/><path d="M2 32h60M32 2v60M11 11c12 10 12 32 0 42M53 11c-12 10-12 32 0 42" fill="none" stroke="#1f2937" stroke-width="3"/></svg>`;

/** FNV-1a, enough to tell two versions of a file apart in its URL. */
function contentHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

export interface StaticAsset {
  path: string;
  contentType: string;
  body: string;
}

export const HUB_ASSETS = {
  css: { path: `/hub/assets/hub-${contentHash(HUB_CSS)}.css`, contentType: "text/css; charset=utf-8", body: HUB_CSS },
  js: { path: `/hub/assets/hub-${contentHash(HUB_JS)}.js`, contentType: "text/javascript; charset=utf-8", body: HUB_JS },
} satisfies Record<string, StaticAsset>;

/** At a fixed path, so /docs (Scalar's `favicon` setting) and browsers asking for it by default find it. */
export const FAVICON: StaticAsset = { path: "/favicon.svg", contentType: "image/svg+xml", body: FAVICON_SVG };
