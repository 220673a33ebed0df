// The API references: the public API at /docs and the runner API (for operators) at /docs/runner,
// rendered in the browser by Scalar (@scalar/hono-api-reference) from the OpenAPI documents the
// Worker serves. Scalar's script is served by this Worker too, at a content-hashed path; the page
// loads no fonts or scripts from elsewhere and its CSP says so.
import { Scalar } from "@scalar/hono-api-reference";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../env";
import { FAVICON } from "../../hub/assets";
import { PUBLIC_OPENAPI_PATH, RUNNER_OPENAPI_PATH } from "../../schemas/api-descriptions";
import { SCALAR_BUNDLE } from "./scalar-bundle";

export const DOCS_PATH = "/docs";
export const RUNNER_DOCS_PATH = "/docs/runner";

let bundlePath: Promise<string> | undefined;

/** `/docs/assets/scalar-<sha-256 prefix>.js`: a new bundle gets a new path, so the old one can be cached forever. */
function scalarBundlePath(): Promise<string> {
  bundlePath ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(SCALAR_BUNDLE)).then((d) => {
    const hex = [...new Uint8Array(d)].slice(0, 6).map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${DOCS_PATH}/assets/scalar-${hex}.js`;
  });
  return bundlePath;
}

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

const SOURCES = [
  { title: "Public API", slug: "public-api", url: PUBLIC_OPENAPI_PATH },
  { title: "Runner API (operators)", slug: "runner-api", url: RUNNER_OPENAPI_PATH },
];

async function renderReference(c: Context<AppEnv>, defaultSlug: string) {
  const scriptNonce = nonce();
  const render = Scalar({
    pageTitle: defaultSlug === "runner-api" ? "Runner API reference" : "API reference",
    cdn: await scalarBundlePath(),
    nonce: scriptNonce,
    // The "Ask AI" agent is a hosted Scalar service: off.
    sources: SOURCES.map((s) => ({ ...s, default: s.slug === defaultSlug, agent: { disabled: true } })),
    favicon: FAVICON.path,
    authentication: { preferredSecurityScheme: defaultSlug === "runner-api" ? "runnerAuth" : "bearerAuth" },
    // Nothing from outside: no web fonts, no telemetry, no hosted services.
    withDefaultFonts: false,
    telemetry: false,
    showDeveloperTools: "never",
    mcp: { disabled: true },
    hideClientButton: true,
    defaultOpenAllTags: true,
    documentDownloadType: "json",
  } as Parameters<typeof Scalar>[0]);
  // The middleware only reads the context to answer `c.html(...)`; it is typed for a plain Hono app.
  const res = (await render(c as unknown as Context, async () => {})) as Response;
  res.headers.set(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src 'self' 'nonce-${scriptNonce}'`,
      // Scalar's components set inline styles at run time.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self' blob:",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  res.headers.set("X-Content-Type-Options", "nosniff");
  return res;
}

export function registerDocsEndpoints(app: Hono<AppEnv>) {
  app.get(DOCS_PATH, (c) => renderReference(c, "public-api"));
  app.get(RUNNER_DOCS_PATH, (c) => renderReference(c, "runner-api"));
  app.get(`${DOCS_PATH}/assets/:file`, async (c) => {
    if (`${DOCS_PATH}/assets/${c.req.param("file")}` !== (await scalarBundlePath())) {
      return c.notFound();
    }
    return c.body(SCALAR_BUNDLE, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
