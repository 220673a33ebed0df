// The runner's source download: Range resume, and the DNS check with a
// pinned connection for external links.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadSource, DownloadError, resolvePinnedAddress } from "../../gpu-runner/download";
import { HostFaultError } from "../../gpu-runner/host-fault";

const body = randomBytes(300_000);
let server: Server;
let base: string;
const rangesSeen: string[] = [];
let cutNextResponse = false;
let stallNextResponse = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/missing") {
      res.statusCode = 404;
      return res.end();
    }
    if (req.url === "/redirect") {
      res.writeHead(302, { Location: "http://10.0.0.1/secret" });
      return res.end();
    }
    const range = req.headers.range;
    rangesSeen.push(range ?? "");
    let start = 0;
    if (range) start = Number(/bytes=(\d+)-/.exec(range)![1]);
    const chunk = body.subarray(start);
    res.writeHead(range ? 206 : 200, {
      "Content-Length": String(chunk.length),
      ...(range ? { "Content-Range": `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (stallNextResponse) {
      // Send part of the bytes, then go silent with the connection open.
      stallNextResponse = false;
      res.write(chunk.subarray(0, 100_000));
      return;
    }
    if (cutNextResponse) {
      // Send part of the bytes, then drop the connection mid-transfer.
      cutNextResponse = false;
      res.write(chunk.subarray(0, 100_000));
      setTimeout(() => res.destroy(), 20);
      return;
    }
    res.end(chunk);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const dir = mkdtempSync(path.join(tmpdir(), "hoops-dl-"));

describe("downloadSource", () => {
  it("downloads the API's own URLs without a DNS check", async () => {
    const dest = path.join(dir, "a.bin");
    const bytes = await downloadSource(`${base}/file`, dest, { apiOrigin: base });
    expect(bytes).toBe(body.length);
    expect(sha(readFileSync(dest))).toBe(sha(body));
  });

  it("resumes a partial file with a Range request", async () => {
    const dest = path.join(dir, "b.bin");
    writeFileSync(dest, body.subarray(0, 123_456));
    rangesSeen.length = 0;
    await downloadSource(`${base}/file`, dest, { apiOrigin: base });
    expect(rangesSeen[0]).toBe("bytes=123456-");
    expect(sha(readFileSync(dest))).toBe(sha(body));
  });

  it("picks up after the connection drops mid-transfer", async () => {
    const dest = path.join(dir, "c.bin");
    cutNextResponse = true;
    rangesSeen.length = 0;
    await downloadSource(`${base}/file`, dest, { apiOrigin: base, attempts: 4 });
    expect(rangesSeen.length).toBeGreaterThanOrEqual(2);
    expect(rangesSeen[1]).toMatch(/^bytes=\d+-$/);
    expect(sha(readFileSync(dest))).toBe(sha(body));
  });

  it("abandons an attempt whose source goes silent, and resumes it", async () => {
    const dest = path.join(dir, "stalled.bin");
    stallNextResponse = true;
    rangesSeen.length = 0;
    await downloadSource(`${base}/file`, dest, { apiOrigin: base, attempts: 4, idleTimeoutMs: 1000 });
    // The next attempt asked for the rest, not the whole file again.
    expect(rangesSeen[1]).toMatch(/^bytes=[1-9]\d*-$/);
    expect(sha(readFileSync(dest))).toBe(sha(body));
  });

  it("blames the host, not the source, when the local copy cannot be written", async () => {
    const dest = path.join(dir, "no-such-dir", "d.bin");
    await expect(downloadSource(`${base}/file`, dest, { apiOrigin: base, attempts: 2 })).rejects.toBeInstanceOf(HostFaultError);
  });

  it("maps a 404 to source_unavailable and does not follow redirects", async () => {
    await expect(downloadSource(`${base}/missing`, path.join(dir, "d.bin"), { apiOrigin: base })).rejects.toMatchObject({ code: "source_unavailable" });
    const err = await downloadSource(`${base}/redirect`, path.join(dir, "e.bin"), { apiOrigin: base }).catch((e) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect(err.message).toMatch(/redirect/);
  });

  it("refuses external links to loopback unless the development setting allows it", async () => {
    const external = { apiOrigin: "https://api.example.com" };
    const err = await downloadSource(`${base}/file`, path.join(dir, "f.bin"), external).catch((e) => e);
    expect(err).toMatchObject({ code: "source_invalid" });
    const ok = await downloadSource(`${base}/file`, path.join(dir, "g.bin"), { ...external, allowLoopback: true });
    expect(ok).toBe(body.length);
  });
});

describe("resolvePinnedAddress", () => {
  it("accepts public addresses and refuses private, link-local and mapped ones", async () => {
    expect(await resolvePinnedAddress("93.184.216.34", false)).toEqual({ address: "93.184.216.34", family: 4 });
    for (const host of ["10.0.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "[::1]", "[fd00::1]", "[::ffff:10.0.0.1]", "127.0.0.1", "localhost"]) {
      await expect(resolvePinnedAddress(host, false), host).rejects.toMatchObject({ code: "source_invalid" });
    }
    expect((await resolvePinnedAddress("127.0.0.1", true)).address).toBe("127.0.0.1");
  });
});
