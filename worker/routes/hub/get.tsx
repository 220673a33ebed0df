/** @jsxImportSource hono/jsx */
// The session hub page behind signed share links (services/share-links.ts), and its stylesheet and
// script. Outside /v1 and the OpenAPI document: the link's signature is the credential. Browsers
// get pages, including for refused links; other clients get the API's JSON error envelope.
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../env";
import { ApiError, type ErrorCode } from "../../errors";
import { FAVICON, HUB_ASSETS } from "../../hub/assets";
import { MessagePage } from "../../hub/layout";
import { SessionPage } from "../../hub/session-page";
import { findSessionById, loadHubView } from "../../services/hub";
import { publicBaseUrl } from "../../services/media-urls";
import { SHARE_LINK_PATH_PREFIX, verifyShareLink } from "../../services/share-links";

const REFUSALS = {
  signature: {
    status: 403,
    code: "signature_invalid",
    heading: "This link is not valid",
    lines: ["The link is incomplete or has been changed. Copy the whole link again, or ask the person who shared it for a new one."],
  },
  expired: {
    status: 403,
    code: "signature_invalid",
    heading: "This link has expired",
    lines: ["Share links work for a limited time. Ask the person who shared it for a new link."],
  },
  revoked: {
    status: 403,
    code: "signature_invalid",
    heading: "This link has been revoked",
    lines: ["The links made before a security change no longer work. Ask the person who shared it for a new link."],
  },
  missing: {
    status: 404,
    code: "resource_missing",
    heading: "This game is not available",
    lines: ["The session this link points to no longer exists."],
  },
} as const satisfies Record<string, { status: 403 | 404; code: ErrorCode; heading: string; lines: string[] }>;

function wantsHtml(c: Context<AppEnv>): boolean {
  return (c.req.header("Accept") ?? "").includes("text/html");
}

/** Headers of every hub page: nothing but this Worker's own files and media may load, and the link in the address bar never leaves the page. */
function pageHeaders(c: Context<AppEnv>, mediaOrigin: string) {
  c.header(
    "Content-Security-Policy",
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src 'self' ${mediaOrigin} data:`,
      `media-src 'self' ${mediaOrigin}`,
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Robots-Tag", "noindex, nofollow");
  c.header("Cache-Control", "no-store");
}

function refuse(c: Context<AppEnv>, reason: keyof typeof REFUSALS, mediaOrigin: string) {
  const r = REFUSALS[reason];
  if (!wantsHtml(c)) throw new ApiError(r.code, `${r.heading}. ${r.lines.join(" ")}`);
  pageHeaders(c, mediaOrigin);
  return c.html(<MessagePage title={r.heading} heading={r.heading} lines={[...r.lines]} />, r.status);
}

export function registerHubEndpoints(app: Hono<AppEnv>) {
  for (const asset of Object.values(HUB_ASSETS)) {
    app.get(asset.path, (c) =>
      c.body(asset.body, 200, {
        "Content-Type": asset.contentType,
        // The path changes with the content, so the file never does.
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      }),
    );
  }

  app.get(FAVICON.path, (c) => c.body(FAVICON.body, 200, { "Content-Type": FAVICON.contentType, "Cache-Control": "public, max-age=86400" }));

  app.get(`${SHARE_LINK_PATH_PREFIX}:id`, async (c) => {
    const { db, env, now } = c.get("services");
    const id = c.req.param("id");
    const baseUrl = publicBaseUrl(env, c.req.url);
    const mediaOrigin = new URL(baseUrl).origin;
    const t = now();
    const check = /^sess_[A-Za-z0-9]{1,64}$/.test(id) ? await verifyShareLink(env, id, new URL(c.req.url).searchParams, t) : ({ valid: false, reason: "signature" } as const);
    if (!check.valid) return refuse(c, check.reason, mediaOrigin);
    const session = await findSessionById(db, id);
    if (!session) return refuse(c, "missing", mediaOrigin);
    const view = await loadHubView(db, env, session, { baseUrl, linkExpires: check.exp, now: t });
    pageHeaders(c, mediaOrigin);
    return c.html(<SessionPage view={view} linkExpires={check.exp} />);
  });
}
