// Veo (veo.co) camera recordings. Two link forms are accepted:
// - match pages `https://app.veo.co/matches/<slug>/` (public matches), whose
//   HTML carries the recording's MP4 link on `*.veocdn.com` in its embedded
//   JSON or in an `og:video` meta tag;
// - direct CDN links `https://<anything>.veocdn.com/…`.
import { PlatformResolveError, type PlatformResolver } from "./types";

const MATCH_PATH = /^\/matches\/([A-Za-z0-9][A-Za-z0-9_-]*)\/?$/;

function isVeoCdnHost(host: string): boolean {
  return host === "veocdn.com" || host.endsWith(".veocdn.com");
}

function isMatchPage(url: URL): boolean {
  return url.hostname === "app.veo.co" && MATCH_PATH.test(url.pathname);
}

/** JSON/HTML escapes that hide a URL inside a page: `\/`, `\u0026`, `&amp;`. */
function unescapePage(html: string): string {
  return html
    .replace(/\\u002[fF]/g, "/")
    .replace(/\\u0026/g, "&")
    .replace(/\\\//g, "/")
    .replace(/&amp;/g, "&")
    .replace(/&#x2F;/gi, "/");
}

const CDN_MP4 = /https:\/\/[A-Za-z0-9.-]*veocdn\.com(?::\d{1,5})?\/[^\s"'<>\\]+?\.mp4(?:\?[^\s"'<>\\]*)?(?=["'\s<>\\]|$)/g;

/**
 * The best MP4 link in a match page: the `og:video` meta tag when present,
 * else the highest-resolution `.mp4` on the Veo CDN (judged by a `1080`/`720`
 * marker in the link), else the first one.
 */
export function findVeoMp4(html: string): string | null {
  const page = unescapePage(html);
  const og = /<meta[^>]+property=["']og:video(?::secure_url|:url)?["'][^>]+content=["']([^"']+)["']/i.exec(page)
    ?? /<meta[^>]+content=["']([^"']+)["'][^>]+property=["']og:video(?::secure_url|:url)?["']/i.exec(page);
  const candidates = [...(og ? [og[1]] : []), ...(page.match(CDN_MP4) ?? [])].filter((u) => {
    try {
      const parsed = new URL(u);
      return parsed.protocol === "https:" && isVeoCdnHost(parsed.hostname) && /\.mp4$/i.test(parsed.pathname);
    } catch {
      return false;
    }
  });
  if (candidates.length === 0) return null;
  if (og && candidates[0] === og[1]) return candidates[0];
  const score = (u: string) => (/1080/.test(u) ? 2 : /720/.test(u) ? 1 : 0);
  return [...candidates].sort((a, b) => score(b) - score(a))[0];
}

export const veo: PlatformResolver = {
  sourceType: "veo",

  matches(url) {
    return url.protocol === "https:" && (isMatchPage(url) || isVeoCdnHost(url.hostname));
  },

  async resolveMediaUrl(url, fetchPage) {
    if (isVeoCdnHost(url.hostname)) return url.toString();
    const page = await fetchPage(url.toString());
    if (page.status === 404 || page.status === 410) {
      throw new PlatformResolveError("The Veo match does not exist or is not public. Check the link and the match's sharing settings, then submit again.", "source_invalid");
    }
    if (page.status >= 500) throw new PlatformResolveError(`Veo answered HTTP ${page.status} for the match page; try again later.`, "source_unavailable", true);
    if (page.status < 200 || page.status >= 300) {
      throw new PlatformResolveError(`The Veo match page answered HTTP ${page.status}: the match must be public.`, "source_unavailable");
    }
    const mp4 = findVeoMp4(page.text);
    if (!mp4) throw new PlatformResolveError("The Veo match page holds no downloadable recording (is the match public and finished?).", "source_invalid");
    return mp4;
  },
};
