// Uploads against a real `wrangler dev`: the real tus-js-client sends a 12 MB
// file in chunks that do not line up with R2's 5 MiB parts, is cut off in the
// middle of a chunk, resumes, and the object served back through a signed
// media URL has the source's SHA-256. The upload CLI is run the same way.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Upload } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/local-stack";
import type { Env } from "../../worker/env";
import { signMediaUrl } from "../../worker/services/media-urls";
import { reserveUpload, sendToStack, startTestStack, type TestStack } from "./stack";

const FILE_BYTES = 12_582_917; // 12 MiB + 5 bytes
const CHUNK_BYTES = 3 * 1024 * 1024 + 333; // never a multiple of the 5 MiB part size

let stack: TestStack;
let apiKey: string;
let orgId: string;
let workDir: string;

beforeAll(async () => {
  stack = await startTestStack();
  const org = await stack.ops.createOrganization("Uploads e2e");
  orgId = org.id;
  apiKey = (await stack.ops.createApiKey(org.id, "e2e")).key;
  workDir = mkdtempSync(path.join(tmpdir(), "hoops-uploads-e2e-"));
});
afterAll(async () => {
  await stack?.destroy();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const reserve = (size: number) => reserveUpload(stack.baseUrl, apiKey, size);

async function serverOffset(uploadUrl: string): Promise<number> {
  const res = await fetch(uploadUrl, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } });
  expect(res.status).toBe(200);
  return Number(res.headers.get("Upload-Offset"));
}

/** A signed media URL for the uploaded object, minted with the stack's own secret. */
function mediaUrl(uploadId: string): Promise<string> {
  // startTestStack passes the secret to wrangler as `--var MEDIA_SIGNING_SECRET:<hex>`.
  const arg = stack.process.spawnargs.find((a) => a.startsWith("MEDIA_SIGNING_SECRET:"))!;
  const env = { MEDIA_SIGNING_SECRET: arg.slice("MEDIA_SIGNING_SECRET:".length) } as Env;
  return signMediaUrl(env, stack.baseUrl, `uploads/${orgId}/${uploadId}`, { expiresInSeconds: 600 });
}

async function download(uploadId: string, contentType = "video/mp4"): Promise<Uint8Array> {
  const res = await fetch(await mediaUrl(uploadId));
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe(contentType);
  return new Uint8Array(await res.arrayBuffer());
}

function tusUpload(source: Buffer, uploadUrl: string, hooks: { onProgress?: (sent: number) => void } = {}) {
  let upload!: Upload;
  const finished = new Promise<void>((resolve, reject) => {
    upload = new Upload(source, {
      uploadUrl,
      chunkSize: CHUNK_BYTES,
      retryDelays: [100, 300, 1000, 2000, 4000],
      onProgress: (sent) => hooks.onProgress?.(sent),
      onSuccess: () => resolve(),
      onError: reject,
    });
  });
  upload.start();
  return { upload, finished };
}

describe("tus uploads through wrangler dev", () => {
  it("are cut off midway, resume, and land with the source's SHA-256", async () => {
    const source = randomBytes(FILE_BYTES);
    const up = await reserve(FILE_BYTES);

    // First attempt: abort in the middle of the third chunk.
    const cutAt = 2 * CHUNK_BYTES + 1_000_000;
    let cut = false;
    let markCut!: () => void;
    const wasCut = new Promise<void>((resolve) => (markCut = resolve));
    const first = tusUpload(source, up.upload_url, {
      onProgress: (sent) => {
        if (sent < cutAt || cut) return;
        cut = true;
        void first.upload.abort().then(markCut);
      },
    });
    await Promise.race([wasCut, first.finished.then(() => Promise.reject(new Error("the upload finished before it was cut off")))]);

    const offset = await serverOffset(up.upload_url);
    expect(offset).toBeGreaterThanOrEqual(2 * CHUNK_BYTES);
    expect(offset).toBeLessThan(FILE_BYTES);

    // Second attempt: a fresh client resumes from the server's offset.
    let firstProgress: number | null = null;
    const second = tusUpload(source, up.upload_url, {
      onProgress: (sent) => {
        firstProgress ??= sent;
      },
    });
    await second.finished;
    expect(firstProgress).toBeGreaterThan(offset - 1); // nothing before the offset was sent again
    expect(await serverOffset(up.upload_url)).toBe(FILE_BYTES);

    const stored = await download(up.id);
    expect(stored.byteLength).toBe(FILE_BYTES);
    expect(sha256(stored)).toBe(sha256(source));
  });

  it("serves byte ranges of the uploaded object", async () => {
    const source = randomBytes(6 * 1024 * 1024);
    const up = await reserve(source.byteLength);
    const res = await sendToStack(() => fetch(up.upload_url, { method: "PUT", body: source, headers: { "Content-Type": "video/mp4" } }));
    expect(res.status).toBe(200);
    const ranged = await fetch(await mediaUrl(up.id), { headers: { Range: "bytes=5242870-5242889" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("Content-Range")).toBe(`bytes 5242870-5242889/${source.byteLength}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(source.subarray(5242870, 5242890));
  });
});

describe("the upload CLI", () => {
  function runCli(file: string, stateFile: string, onStderr?: (text: string, kill: () => void) => void) {
    // `node --import tsx` keeps the CLI in one process, so SIGKILL really stops
    // it (the tsx binary would leave its child running).
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "scripts/upload.ts"), file, "--chunk-size", String(1024 * 1024 + 7), "--state", stateFile],
      { cwd: ROOT, env: { ...process.env, HOOPS_API_URL: stack.baseUrl, HOOPS_API_KEY: apiKey }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      onStderr?.(stderr, () => child.kill("SIGKILL"));
    });
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
  }

  it("uploads a file, resumes after being killed, and prints the upload id", async () => {
    const source = randomBytes(FILE_BYTES);
    const file = path.join(workDir, "game.mp4");
    const stateFile = path.join(workDir, "state.json");
    writeFileSync(file, source);

    // Killed once its progress passes 30% (not a TTY: one line per 10%).
    const killed = await runCli(file, stateFile, (text, kill) => {
      if (/^\s*[3-9]\d\.\d%/m.test(text)) kill();
    });
    expect(killed.code).not.toBe(0);
    expect(killed.stdout).toBe("");

    const resumed = await runCli(file, stateFile);
    expect(resumed.stderr).toMatch(/Resuming upload up_/);
    expect(resumed.code).toBe(0);
    const uploadId = resumed.stdout.trim();
    expect(uploadId).toMatch(/^up_[0-9A-Za-z]{24}$/);
    expect(resumed.stderr).toContain(uploadId);
    expect(sha256(await download(uploadId))).toBe(sha256(source));
  });

  it("starts a new upload when the remembered one can no longer be resumed", async () => {
    const source = randomBytes(2_000_000);
    const file = path.join(workDir, "short.mov");
    const stateFile = path.join(workDir, "state-gone.json");
    writeFileSync(file, source);
    // Killed at its first progress line, long before the last byte.
    const killed = await runCli(file, stateFile, (text, kill) => {
      if (/%/.test(text)) kill();
    });
    expect(killed.code).not.toBe(0);
    // Terminate the remembered upload behind the CLI's back.
    const [remembered] = Object.values(JSON.parse(readFileSync(stateFile, "utf8"))) as { upload_id: string; upload_url: string }[];
    const terminated = await sendToStack(() => fetch(remembered.upload_url, { method: "DELETE", headers: { "Tus-Resumable": "1.0.0" } }));
    expect([204, 409]).toContain(terminated.status); // 409: it had already completed before the kill
    const rerun = await runCli(file, stateFile);
    expect(rerun.code).toBe(0);
    const uploadId = rerun.stdout.trim();
    if (terminated.status === 204) {
      expect(rerun.stderr).toMatch(/can no longer be resumed; starting a new one/);
      expect(uploadId).not.toBe(remembered.upload_id);
    }
    expect(sha256(await download(uploadId, "video/quicktime"))).toBe(sha256(source));
    expect(JSON.parse(readFileSync(stateFile, "utf8"))).toEqual({});
  });
});
