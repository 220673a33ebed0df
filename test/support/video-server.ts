// A local stand-in for video hosts: answers HEAD and ranged GET for
// `/video/<bytes>.mp4` as an MP4 of that many bytes (without the bytes),
// redirects from `/redirect?to=<url>`, and serves Veo-like match pages from
// test/support/fixtures/ under `/veo/matches/<slug>/`. For the outbound
// client's tests: `/echo` answers the request's headers as JSON, `/slow?ms=`
// answers after a delay, `/page?bytes=` is an HTML page of that size, and
// `/status/<code>` answers that status.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

export async function startVideoServer(): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://localhost");
    const video = /^\/video\/(\d+)\.mp4$/.exec(u.pathname);
    if (video) {
      const size = video[1];
      res.setHeader("Content-Type", "video/mp4");
      res.setHeader("Accept-Ranges", "bytes");
      if (req.method === "HEAD") {
        res.setHeader("Content-Length", size);
        return res.end();
      }
      res.statusCode = 206;
      res.setHeader("Content-Range", `bytes 0-0/${size}`);
      return res.end("\0");
    }
    if (u.pathname === "/echo") {
      res.setHeader("Content-Type", "application/json");
      return res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers }));
    }
    if (u.pathname === "/slow") {
      const timer = setTimeout(() => res.end("late"), Number(u.searchParams.get("ms") ?? 5000));
      res.on("close", () => clearTimeout(timer));
      return;
    }
    if (u.pathname === "/page") {
      res.setHeader("Content-Type", "text/html");
      // No Content-Length: the reader must count what arrives.
      res.write(`<html>${"x".repeat(Math.max(0, Number(u.searchParams.get("bytes") ?? 0) - 6))}`);
      return res.end();
    }
    const status = /^\/status\/(\d{3})$/.exec(u.pathname);
    if (status) {
      res.statusCode = Number(status[1]);
      res.setHeader("Content-Type", "text/plain");
      return res.end("status");
    }
    if (u.pathname === "/redirect" && u.searchParams.get("to")) {
      res.statusCode = 302;
      res.setHeader("Location", u.searchParams.get("to")!);
      return res.end();
    }
    const match = /^\/veo\/matches\/([a-z0-9-]+)\/?$/.exec(u.pathname);
    if (match) {
      try {
        const page = readFileSync(path.join(FIXTURES, `veo-match-${match[1]}.html`), "utf8");
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        return res.end(page);
      } catch {
        // no fixture: a missing match
      }
    }
    res.statusCode = 404;
    res.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
