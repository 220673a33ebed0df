// The lens a file says it was filmed with (media/lens.ts): an iPhone writes its camera's 35 mm-
// equivalent focal length into the video track's QuickTime metadata, which ffprobe does not read.
// The files here are made by ffmpeg and given the metadata box an iPhone writes (keys + item list
// in the video track's `meta`), built byte by byte, since no real phone file can be kept here.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { FFMPEG, FFPROBE } from "../../gpu-runner/media/binaries.ts";
import { FOCAL_LENGTH_35MM_KEY, readLens35mm } from "../../gpu-runner/media/lens.ts";
import { probe } from "../../gpu-runner/media/probe.ts";

const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, body]);
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** A QuickTime `meta` box (no version or flags, as phones write it) holding one key with a value of the data box's `type` (1 text, 21 big-endian signed integer). */
function quickTimeMeta(key: string, type: number, value: Buffer): Buffer {
  const hdlr = box("hdlr", u32(0), u32(0), Buffer.from("mdta", "latin1"), Buffer.alloc(12), Buffer.from([0]));
  const keys = box("keys", u32(0), u32(1), box("mdta", Buffer.from(key, "latin1")));
  const ilst = box("ilst", box("\0\0\0\x01", box("data", u32(type), u32(0), value)));
  return box("meta", hdlr, keys, ilst);
}

/** The top-level boxes of a file: type, offset and size. */
function topBoxes(file: Buffer): Array<{ type: string; at: number; size: number }> {
  const out: Array<{ type: string; at: number; size: number }> = [];
  for (let at = 0; at + 8 <= file.length; ) {
    const size = file.readUInt32BE(at);
    out.push({ type: file.toString("latin1", at + 4, at + 8), at, size });
    at += size;
  }
  return out;
}

/** The file with `meta` appended to its first track's box (ffmpeg writes the movie box last, so no sample offset moves). */
function withTrackMeta(file: Buffer, meta: Buffer): Buffer {
  const moov = topBoxes(file).find((b) => b.type === "moov")!;
  expect(moov.at + moov.size).toBe(file.length);
  const inner: Buffer[] = [];
  for (let at = moov.at + 8; at < moov.at + moov.size; ) {
    const size = file.readUInt32BE(at);
    let child = file.subarray(at, at + size);
    if (child.toString("latin1", 4, 8) === "trak" && !inner.some((b) => b.toString("latin1", 4, 8) === "trak")) {
      child = Buffer.concat([u32(size + meta.length), child.subarray(4), meta]);
    }
    inner.push(child);
    at += size;
  }
  return Buffer.concat([file.subarray(0, moov.at), box("moov", ...inner)]);
}

describe("the lens a file names (media/lens.ts)", () => {
  let dir: string, plain: Buffer;
  const write = (name: string, bytes: Buffer) => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "lens-"));
    execFileSync(FFMPEG, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=96x64:r=10:d=1", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", path.join(dir, "plain.mov")]);
    plain = readFileSync(path.join(dir, "plain.mov"));
  });

  it("reads the 35 mm-equivalent focal length from the video track's metadata, as an iPhone writes it (an integer), which ffprobe misses", async () => {
    const file = write("tele.mov", withTrackMeta(plain, quickTimeMeta(FOCAL_LENGTH_35MM_KEY, 21, u32(77))));
    expect(await readLens35mm(file)).toBe(77);
    // ffprobe reads the file, and the lens comes with the rest of what probe reports.
    expect(await probe(file)).toMatchObject({ width: 96, height: 64, lens35mm: 77 });
    const ffprobeTags = execFileSync(FFPROBE, ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", file], { encoding: "utf8" });
    expect(ffprobeTags).not.toContain(FOCAL_LENGTH_35MM_KEY);
  });

  it("reads it as text too, and from the movie's own metadata (where ffmpeg writes it)", async () => {
    expect(await readLens35mm(write("text.mov", withTrackMeta(plain, quickTimeMeta(FOCAL_LENGTH_35MM_KEY, 1, Buffer.from("50.00mm")))))).toBe(50);
    const movieLevel = path.join(dir, "movie-level.mov");
    execFileSync(FFMPEG, ["-v", "error", "-i", path.join(dir, "plain.mov"), "-c", "copy", "-movflags", "use_metadata_tags", "-metadata", `${FOCAL_LENGTH_35MM_KEY}=13`, movieLevel]);
    expect(await readLens35mm(movieLevel)).toBe(13);
  });

  it("says nothing for a file without the tag, another key, a value that is no lens, or a file that is not MP4", async () => {
    expect(await readLens35mm(path.join(dir, "plain.mov"))).toBeNull();
    expect(await probe(path.join(dir, "plain.mov"))).toMatchObject({ lens35mm: null });
    expect(await readLens35mm(write("other.mov", withTrackMeta(plain, quickTimeMeta("com.apple.quicktime.camera.lens_model", 1, Buffer.from("back camera")))))).toBeNull();
    for (const mm of [0, 5000]) expect(await readLens35mm(write(`odd-${mm}.mov`, withTrackMeta(plain, quickTimeMeta(FOCAL_LENGTH_35MM_KEY, 21, u32(mm)))))).toBeNull();
    expect(await readLens35mm(write("not-a-video.mov", Buffer.from("not a video at all")))).toBeNull();
    // A movie box whose length runs past the end of the file.
    const cut = withTrackMeta(plain, quickTimeMeta(FOCAL_LENGTH_35MM_KEY, 21, u32(77)));
    expect(await readLens35mm(write("cut.mov", cut.subarray(0, cut.length - 40)))).toBeNull();
  });
});
