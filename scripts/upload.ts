#!/usr/bin/env -S npx tsx
// Upload CLI: reserves an upload with the API key (POST /v1/uploads), sends
// the file with tus in resumable chunks while drawing a progress bar on
// stderr, and prints the upload id on stdout. The upload URL is remembered in
// a small state file, so running the same command again after an interruption
// resumes where the server's offset says, instead of starting over.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, createReadStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Upload, type UploadOptions } from "tus-js-client";
import { ROOT } from "./lib/local-stack";

/** The chunk size recommended in docs/uploads.md (a multiple of the server's 5 MiB R2 part size). */
const DEFAULT_CHUNK_BYTES = 50 * 1024 * 1024;
const CONTENT_TYPES: Record<string, string> = { ".mp4": "video/mp4", ".m4v": "video/mp4", ".mov": "video/quicktime", ".qt": "video/quicktime" };

const USAGE = `Usage: npm run upload -- <file> [options]

Reserves an upload, sends the file in resumable chunks and prints the upload id
(use it as \`source: {type: "upload", upload_id}\` when submitting a session).
Run the same command again to resume an interrupted upload.

Options:
  --key KEY            API key          (default: $HOOPS_API_KEY, else .local/dev.json)
  --url URL            API base URL     (default: $HOOPS_API_URL, else .local/dev.json)
  --content-type TYPE  video/mp4 or video/quicktime (default: from the file extension)
  --chunk-size BYTES   bytes per request (default: ${DEFAULT_CHUNK_BYTES}, at most 94371840)
  --state FILE         where unfinished uploads are remembered (default: ~/.hoops/uploads.json)
  --quiet              no progress bar
`;

interface RememberedUpload {
  upload_id: string;
  upload_url: string;
}

type StateFile = Record<string, RememberedUpload>;

function localDefaults(): { base_url?: string; api_key?: string } {
  const file = path.join(ROOT, ".local/dev.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
}

function readState(file: string): StateFile {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
}

function writeState(file: string, state: StateFile): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

async function reserveUpload(baseUrl: string, key: string, body: { content_type: string; size: number; filename: string }): Promise<RememberedUpload> {
  const res = await fetch(`${baseUrl}/v1/uploads`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer: any = await res.json().catch(() => ({}));
  if (!res.ok) {
    throw new Error(`Reserving the upload failed: ${res.status} ${answer?.error?.code ?? ""} ${answer?.error?.message ?? ""} (Request-Id ${res.headers.get("Request-Id")})`.trim());
  }
  return { upload_id: answer.id, upload_url: answer.upload_url };
}

function progressBar(quiet: boolean) {
  const started = Date.now();
  let lastDraw = 0;
  const tty = process.stderr.isTTY;
  let lastDecile = -1;
  return (sent: number, total: number) => {
    if (quiet) return;
    const now = Date.now();
    const done = sent === total;
    const fraction = total === 0 ? 1 : sent / total;
    const mbPerSecond = sent / 1e6 / Math.max(0.001, (now - started) / 1000);
    const text = `${(fraction * 100).toFixed(1).padStart(5)}%  ${(sent / 1e6).toFixed(1)} / ${(total / 1e6).toFixed(1)} MB  ${mbPerSecond.toFixed(1)} MB/s`;
    if (tty) {
      if (!done && now - lastDraw < 100) return;
      lastDraw = now;
      const width = 30;
      const filled = Math.round(fraction * width);
      process.stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${text}${done ? "\n" : ""}`);
    } else {
      // Logs get a line per 10% rather than a carriage-return animation.
      const decile = Math.floor(fraction * 10);
      if (decile === lastDecile) return;
      lastDecile = decile;
      process.stderr.write(`${text}\n`);
    }
  };
}

function sendWithTus(file: string, target: RememberedUpload, chunkSize: number, onProgress: (sent: number, total: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    // Only options that are set: tus-js-client treats a present-but-undefined
    // key differently from a missing one (chunkSize: undefined never advances).
    const options: UploadOptions = {
      uploadUrl: target.upload_url,
      chunkSize,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      onProgress,
      onSuccess: () => resolve(),
      onError: reject,
    };
    new Upload(createReadStream(file), options).start();
  });
}

/** True when the server no longer knows the remembered upload (terminated, expired or never created). */
function isGone(err: unknown): boolean {
  const status = (err as { originalResponse?: { getStatus(): number } | null }).originalResponse?.getStatus();
  return status === 404 || status === 410 || status === 403;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      key: { type: "string" },
      url: { type: "string" },
      "content-type": { type: "string" },
      "chunk-size": { type: "string" },
      state: { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  const [fileArg] = positionals;
  if (!fileArg || values.help) {
    process.stdout.write(USAGE);
    return fileArg ? 0 : 1;
  }
  const file = path.resolve(fileArg);
  if (!existsSync(file)) throw new Error(`No such file: ${file}`);
  const stat = statSync(file);
  const contentType = values["content-type"] ?? CONTENT_TYPES[path.extname(file).toLowerCase()];
  if (!contentType) throw new Error(`Cannot tell the type of ${path.basename(file)}; pass --content-type video/mp4 or video/quicktime.`);
  const chunkSize = values["chunk-size"] ? Number(values["chunk-size"]) : DEFAULT_CHUNK_BYTES;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new Error("--chunk-size must be a positive integer (bytes).");

  const defaults = localDefaults();
  const baseUrl = (values.url ?? process.env.HOOPS_API_URL ?? defaults.base_url)?.replace(/\/$/, "");
  const key = values.key ?? process.env.HOOPS_API_KEY ?? defaults.api_key;
  if (!baseUrl || !key) {
    process.stderr.write("No API URL or key: pass --url and --key (or set HOOPS_API_URL and HOOPS_API_KEY), or run `npm start` first.\n");
    return 1;
  }

  const stateFile = path.resolve(values.state ?? path.join(os.homedir(), ".hoops", "uploads.json"));
  // The same file, unchanged, to the same server: only then is resuming safe.
  const fingerprint = `${baseUrl} ${file} ${stat.size} ${stat.mtimeMs}`;
  const state = readState(stateFile);
  let target = state[fingerprint];
  if (target) {
    process.stderr.write(`Resuming upload ${target.upload_id}\n`);
  } else {
    target = await reserveUpload(baseUrl, key, { content_type: contentType, size: stat.size, filename: path.basename(file) });
    writeState(stateFile, { ...state, [fingerprint]: target });
  }

  try {
    await sendWithTus(file, target, chunkSize, progressBar(values.quiet));
  } catch (err) {
    if (!isGone(err) || !state[fingerprint]) throw err;
    // The remembered upload expired or was terminated: start a fresh one.
    process.stderr.write(`Upload ${target.upload_id} can no longer be resumed; starting a new one.\n`);
    target = await reserveUpload(baseUrl, key, { content_type: contentType, size: stat.size, filename: path.basename(file) });
    writeState(stateFile, { ...readState(stateFile), [fingerprint]: target });
    await sendWithTus(file, target, chunkSize, progressBar(values.quiet));
  }

  const { [fingerprint]: _finished, ...rest } = readState(stateFile);
  writeState(stateFile, rest);
  process.stdout.write(`${target.upload_id}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
