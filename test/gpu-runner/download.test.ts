// The runner's source download: Range resume, and for external links the
// Worker's URL policy — resolve (here through a local DNS-over-HTTPS
// stand-in), refuse non-public destinations, connect to the checked address
// with the host name kept, re-check every redirect — plus the 10 GB cap.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkHop, downloadSource, DownloadError, resolverFor, systemResolver } from "../../gpu-runner/download";
import { HostFaultError } from "../../gpu-runner/host-fault";
import { startDohServer, type DohServer } from "../support/doh-server";

const body = randomBytes(300_000);
let server: Server;
let base: string;
let port: number;
let doh: DohServer;
const rangesSeen: string[] = [];
const hostsSeen: string[] = [];
let cutNextResponse = false;
let stallNextResponse = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    hostsSeen.push(req.headers.host ?? "");
    if (u.pathname === "/missing") {
      res.statusCode = 404;
      return res.end();
    }
    if (u.pathname === "/redirect") {
      res.writeHead(302, { Location: "http://10.0.0.1/secret" });
      return res.end();
    }
    if (u.pathname === "/hop") {
      res.writeHead(302, { Location: u.searchParams.get("to")! });
      return res.end();
    }
    if (u.pathname === "/loop") {
      res.writeHead(302, { Location: "/loop" });
      return res.end();
    }
    if (u.pathname === "/chunked") {
      // No Content-Length: the size is only known by counting.
      res.writeHead(200, { "Content-Type": "video/mp4" });
      return res.end(body);
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
  port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
  // Names the host's resolver has never heard of: only the DoH stand-in knows them.
  doh = await startDohServer({
    "videos.example.test": { A: ["127.0.0.1"] },
    "public.example.test": { A: ["93.184.216.34"] },
    "private.example.test": { A: ["10.0.0.7"] },
    "metadata.example.test": { A: ["169.254.169.254"] },
    "dns-down.example.test": { fault: "http_500" },
  });
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await doh?.close();
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const dir = mkdtempSync(path.join(tmpdir(), "hoops-dl-"));
const EXTERNAL = "https://api.example.com"; // the API's origin when a link is not the API's own
const dev = () => ({ apiOrigin: EXTERNAL, allowLoopback: true, resolver: resolverFor(doh.url), attempts: 2 });
const byName = (p: string) => `https://videos.example.test:${port}${p}`;

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

  it("maps a 404 to source_unavailable with a sentence for the customer", async () => {
    const err = await downloadSource(`${base}/missing`, path.join(dir, "d.bin"), { apiOrigin: base }).catch((e) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect(err.code).toBe("source_unavailable");
    expect(err.message).toMatch(/^The link answered HTTP 404 \(not found\)/);
  });

  it("never gives the customer the runner's connection details; the log gets them", async () => {
    const err = await downloadSource("http://127.0.0.1:1/file", path.join(dir, "refused.bin"), { apiOrigin: "http://127.0.0.1:1", attempts: 2 }).catch((e) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect(err.code).toBe("source_unavailable");
    expect(err.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|\/tmp|\bat\b.*\.ts/);
    expect(err.detail).toMatch(/ECONNREFUSED/);
  });
});

describe("the URL policy on external links", () => {
  it("resolves a host name through the configured resolver and connects to the checked address, keeping the name as Host", async () => {
    // `videos.example.test` exists only in the DoH stand-in: the host's resolver cannot find it,
    // so the download works only because the connection goes to the address the check accepted.
    expect(await systemResolver.resolve("videos.example.test")).toEqual([]);
    const dest = path.join(dir, "by-name.bin");
    hostsSeen.length = 0;
    expect(await downloadSource(byName("/file"), dest, dev())).toBe(body.length);
    expect(sha(readFileSync(dest))).toBe(sha(body));
    expect(hostsSeen).toEqual([`videos.example.test:${port}`]);
  });

  it("refuses a host that resolves to loopback without the development setting", async () => {
    const err = await downloadSource(byName("/file"), path.join(dir, "no-loopback.bin"), { ...dev(), allowLoopback: false }).catch((e) => e);
    expect(err).toMatchObject({ code: "source_invalid" });
    expect(err.message).toMatch(/non-public address/);
  });

  it("follows redirects, checking every hop: a hop to a private or metadata address is refused before any request", async () => {
    hostsSeen.length = 0;
    const good = byName(`/hop?to=${encodeURIComponent(byName("/file"))}`);
    expect(await downloadSource(good, path.join(dir, "hop.bin"), dev())).toBe(body.length);
    expect(hostsSeen).toHaveLength(2);

    for (const target of ["https://private.example.test/file", "https://metadata.example.test/latest/meta-data", "http://10.0.0.1/secret", "https://8.8.8.8/file"]) {
      const queriesBefore = doh.queries.length;
      const err = await downloadSource(byName(`/hop?to=${encodeURIComponent(target)}`), path.join(dir, "bad-hop.bin"), dev()).catch((e) => e);
      expect(err, target).toMatchObject({ code: "source_invalid" });
      if (target.includes("example.test")) expect(doh.queries.slice(queriesBefore)).toContain(new URL(target).hostname);
    }
  });

  it("a redirect from the API's own URL to an external address is checked too", async () => {
    const err = await downloadSource(`${base}/redirect`, path.join(dir, "e.bin"), { apiOrigin: base }).catch((e) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect(err.code).toBe("source_invalid");
  });

  it("stops after 5 redirects", async () => {
    const err = await downloadSource(byName("/loop"), path.join(dir, "loop.bin"), dev()).catch((e) => e);
    expect(err).toMatchObject({ code: "source_unavailable", message: "The link redirects more than 5 times; link to the video file itself." });
  });

  it("a resolver that cannot answer is retried, then the session gets a plain sentence", async () => {
    const err = await downloadSource("https://dns-down.example.test/file", path.join(dir, "dns.bin"), dev()).catch((e) => e);
    expect(err).toMatchObject({ code: "source_unavailable" });
    expect(err.message).toMatch(/^The link's host name could not be looked up\./);
  });
});

describe("checkHop", () => {
  const strict = { allowLoopback: false, resolver: resolverFor(undefined) };
  it("refuses IP literals, private, link-local, mapped and loopback destinations", async () => {
    for (const url of ["https://93.184.216.34/a", "https://10.0.0.1/a", "https://192.168.1.1/a", "https://169.254.169.254/a", "https://100.64.0.1/a", "https://[::1]/a", "https://[fd00::1]/a", "https://[::ffff:10.0.0.1]/a", "https://127.0.0.1/a", "https://localhost/a", "http://example.com/a"]) {
      await expect(checkHop(new URL(url), strict), url).rejects.toMatchObject({ code: "source_invalid" });
    }
  });

  it("pins a public name to its checked address", async () => {
    const hop = await checkHop(new URL("https://public.example.test/game.mp4"), { allowLoopback: false, resolver: resolverFor(doh.url) });
    expect(hop.pinned).toEqual({ address: "93.184.216.34", family: 4 });
    expect(hop.url.href).toBe("https://public.example.test/game.mp4");
  });

  it("with the development setting, reaches a loopback stand-in over plain http at the same port", async () => {
    const hop = await checkHop(new URL("https://videos.example.test:8443/a.mp4"), { allowLoopback: true, resolver: resolverFor(doh.url) });
    expect(hop.url.href).toBe("http://videos.example.test:8443/a.mp4");
    expect(hop.pinned?.address).toBe("127.0.0.1");
  });
});

describe("the 10 GB cap", () => {
  it("refuses a source whose declared size is over the cap before writing it", async () => {
    const dest = path.join(dir, "declared.bin");
    const err = await downloadSource(`${base}/file`, dest, { apiOrigin: base, maxBytes: 100_000 }).catch((e) => e);
    expect(err).toMatchObject({ code: "video_too_large" });
    expect(existsSync(dest)).toBe(false);
  });

  it("stops a source without Content-Length once it streams past the cap", async () => {
    const dest = path.join(dir, "streamed.bin");
    const err = await downloadSource(byName("/chunked"), dest, { ...dev(), maxBytes: 100_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect(err.code).toBe("video_too_large");
    expect(statSync(dest).size).toBeLessThanOrEqual(100_000 + 65_536);
  });

  it("takes a source without Content-Length under the cap", async () => {
    const dest = path.join(dir, "chunked-ok.bin");
    expect(await downloadSource(byName("/chunked"), dest, dev())).toBe(body.length);
  });
});
