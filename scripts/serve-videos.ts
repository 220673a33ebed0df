// `npm run serve-videos -- [folder] [--port 8788]`: serves the video files of
// a folder on http://127.0.0.1, so a link session can be tried against the
// local stack (`npm start` lets the Worker and the runner fetch loopback links:
// ALLOW_LOOPBACK_URLS / --allow-loopback-urls). Prints a ready-to-run submit
// command per video, with the dev API key from .local/dev.json.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startFileServer, videoFilesIn } from "./lib/file-server";
import { ROOT } from "./lib/local-stack";

const { values, positionals } = parseArgs({ options: { port: { type: "string", default: "8788" } }, allowPositionals: true });
const folder = path.resolve(positionals[0] ?? ".");
if (!existsSync(folder)) {
  console.error(`No such folder: ${folder}`);
  process.exit(2);
}
const devFile = path.join(ROOT, ".local/dev.json");
const dev = existsSync(devFile) ? (JSON.parse(readFileSync(devFile, "utf8")) as { base_url: string; api_key?: string }) : null;
const server = await startFileServer({
  root: folder,
  port: Number(values.port),
  onRequest: (req, status) => console.log(`${req.method} ${req.url} ${req.headers.range ? `(${req.headers.range}) ` : ""}→ ${status}`),
});
const videos = videoFilesIn(folder);
console.log(`Serving ${folder} at ${server.url} (Ctrl-C to stop)\n`);
if (videos.length === 0) console.log("No .mp4 or .mov files in this folder yet (try `npm run synth -- --seed 7 --seconds 30 --out <folder>`).");
for (const name of videos) {
  const link = `${server.url}/${encodeURIComponent(name)}`;
  console.log(`${name}\n  curl -s ${dev?.base_url ?? "http://127.0.0.1:8787"}/v1/sessions -H "Authorization: Bearer ${dev?.api_key ?? "$KEY"}" \\
    -H "Content-Type: application/json" -d '{"source": {"url": "${link}"}}'\n`);
}
if (!dev) console.log("(Run `npm start` first: it writes the API key to .local/dev.json.)");
