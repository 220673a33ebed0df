// A small static file server for video files: HEAD, GET and single byte
// ranges (the Worker checks a link with `Range: bytes=0-0`, the runner
// resumes with `Range: bytes=N-`). Used by `npm run serve-videos` (a link
// session tried locally) and by the end-to-end tests' stand-in hosts.
import { createReadStream, existsSync, readdirSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";

const TYPES: Record<string, string> = { ".mp4": "video/mp4", ".m4v": "video/mp4", ".mov": "video/quicktime", ".json": "application/json", ".txt": "text/plain" };

export function contentTypeFor(file: string): string {
  return TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
}

/** Answers `req` with `file`, honouring HEAD and one `Range: bytes=a-b` / `a-` / `-n`. */
export function sendFile(req: IncomingMessage, res: ServerResponse, file: string, contentType = contentTypeFor(file)): void {
  const size = statSync(file).size;
  res.setHeader("Content-Type", contentType);
  res.setHeader("Accept-Ranges", "bytes");
  let start = 0;
  let end = size - 1;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      if (range[2]) end = Math.min(Number(range[2]), size - 1);
    } else {
      start = Math.max(0, size - Number(range[2]));
    }
    if (start >= size || start > end) {
      res.writeHead(416, { "Content-Range": `bytes */${size}` });
      res.end();
      return;
    }
    res.statusCode = 206;
    res.setHeader("Content-Range", `bytes ${start}-${end}/${size}`);
  }
  res.setHeader("Content-Length", String(end - start + 1));
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  createReadStream(file, { start, end }).pipe(res);
}

export interface FileServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Serves the files under `root` (no directory listing outside it) on `host:port`. */
export async function startFileServer(opts: { root: string; port?: number; host?: string; onRequest?: (req: IncomingMessage, status: number) => void }): Promise<FileServer> {
  const root = path.resolve(opts.root);
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = path.resolve(root, `.${pathname}`);
    res.on("finish", () => opts.onRequest?.(req, res.statusCode));
    if ((req.method !== "GET" && req.method !== "HEAD") || !file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
      return;
    }
    sendFile(req, res, file);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Video files directly under `root` (what `npm run serve-videos` announces). */
export function videoFilesIn(root: string): string[] {
  return readdirSync(root).filter((name) => contentTypeFor(name).startsWith("video/") && statSync(path.join(root, name)).isFile());
}
