// One local HTTP server standing in, in end-to-end tests, for the hosts a
// link session reaches: a customer's video host, the camera platform's match
// pages (app.veo.co) and its CDN (*.veocdn.com). Test names resolve to
// 127.0.0.1 through the DoH stand-in, and with the loopback opt-in the Worker
// and the runner connect here; every request is recorded with the host name
// it was meant for (`Host`, or `X-Forwarded-Host` from the Worker), so a test
// can tell a name went through the resolver.
//
// Routes: `/files/<name>` a file (HEAD, Range); `/matches/<slug>/` a Veo-like
// match page whose recording is `cdnUrl`; `/redirect?to=` a 302;
// `/status/<code>`; `/page` an HTML page; `/garbage.mp4` bytes that are not
// a video, served as video/mp4.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { sendFile } from "../../scripts/lib/file-server";

export interface LinkHostRequest {
  method: string;
  path: string;
  /** `X-Forwarded-Host` when the Worker sent it, else `Host`. */
  host: string;
  forwarded: boolean;
}

export interface LinkHost {
  url: string;
  port: number;
  server: Server;
  requests: LinkHostRequest[];
  /** Files served under `/files/<name>`. */
  files: Map<string, string>;
  /** Match pages: slug → the recording's MP4 link the page embeds (null: a page without one). */
  matches: Map<string, string | null>;
  close(): Promise<void>;
}

const GARBAGE = randomBytes(64 * 1024);

function matchPage(slug: string, mp4: string | null): string {
  // The shape of a public Veo match page: the recording's link in `og:video` and in the page's
  // embedded JSON, with JSON escapes.
  const escaped = mp4?.replace(/\//g, "\\/") ?? "";
  return `<!doctype html><html><head><title>${slug}</title>
${mp4 ? `<meta property="og:video" content="${mp4}">` : ""}
</head><body><script id="__NEXT_DATA__" type="application/json">{"props":{"match":{"slug":"${slug}","videos":[${mp4 ? `{"url":"${escaped}","height":1080}` : ""}]}}}</script></body></html>`;
}

export async function startLinkHost(): Promise<LinkHost> {
  const requests: LinkHostRequest[] = [];
  const files = new Map<string, string>();
  const matches = new Map<string, string | null>();
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const forwarded = typeof req.headers["x-forwarded-host"] === "string";
    requests.push({ method: req.method ?? "GET", path: u.pathname + u.search, host: String(req.headers["x-forwarded-host"] ?? req.headers.host ?? ""), forwarded });
    const file = /^\/files\/(.+)$/.exec(u.pathname);
    if (file && files.has(file[1])) return sendFile(req, res, files.get(file[1])!);
    const match = /^\/matches\/([\w-]+)\/?$/.exec(u.pathname);
    if (match && matches.has(match[1])) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(matchPage(match[1], matches.get(match[1])!));
    }
    if (u.pathname === "/redirect" && u.searchParams.get("to")) return res.writeHead(302, { Location: u.searchParams.get("to")! }).end();
    const status = /^\/status\/(\d{3})$/.exec(u.pathname);
    if (status) return res.writeHead(Number(status[1]), { "Content-Type": "text/plain" }).end("status\n");
    if (u.pathname === "/page") return res.writeHead(200, { "Content-Type": "text/html" }).end("<html><body>Watch the game here!</body></html>");
    if (u.pathname === "/garbage.mp4") {
      res.writeHead(200, { "Content-Type": "video/mp4", "Content-Length": String(GARBAGE.length) });
      return res.end(req.method === "HEAD" ? undefined : GARBAGE);
    }
    res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    requests,
    files,
    matches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
