// The lens a video was filmed with, when its file says so. iPhones write the 35 mm-equivalent focal
// length of the camera that recorded (13 mm for the 0.5× ultra-wide, about 26 for 1×, 77 or 120 for
// the telephotos) as `com.apple.quicktime.camera.focal_length.35mm_equivalent`, in the video track's
// own metadata; ffprobe reads a file's metadata but not a track's, so the movie box is read here with
// mp4box. Sizes in the picture fix a distance along the camera's axis only up to the lens
// (analysis/rules/distance.ts), so a file that names its lens is worth reading. Files re-encoded by
// an app or a site lose the tag; then the answer is null and the analysis assumes a lens.
import { open, type FileHandle } from "node:fs/promises";
import { createFile, MP4BoxBuffer } from "mp4box";

export const FOCAL_LENGTH_35MM_KEY = "com.apple.quicktime.camera.focal_length.35mm_equivalent";
/** A movie box larger than this is not read (a two-hour phone video's is a few MB). */
const MAX_MOVIE_BOX_BYTES = 64 * 1024 * 1024;
/** A tag outside this range (mm) names no camera lens. */
const PLAUSIBLE_LENS_MM: readonly [number, number] = [8, 1200];

interface AnyBox {
  type: string;
  boxes?: AnyBox[];
}
interface KeysBox extends AnyBox {
  keys: Record<number, string>;
}
interface IlstBox extends AnyBox {
  list: Record<number, { value?: unknown }>;
}

/** Where the top-level `moov` box lies in the file, walking the top-level box headers only. */
async function findMovieBox(file: FileHandle): Promise<{ start: number; size: number } | null> {
  const { size: fileSize } = await file.stat();
  const head = Buffer.alloc(16);
  let at = 0;
  while (at + 8 <= fileSize) {
    const { bytesRead } = await file.read(head, 0, 16, at);
    if (bytesRead < 8) return null;
    let size = head.readUInt32BE(0);
    const type = head.toString("latin1", 4, 8);
    if (size === 1) {
      if (bytesRead < 16) return null;
      size = Number(head.readBigUInt64BE(8));
    } else if (size === 0) size = fileSize - at;
    if (size < 8) return null;
    if (type === "moov") return { start: at, size };
    at += size;
  }
  return null;
}

/** A tag's value as millimetres: a number, or text such as "77" or "50.00mm"; null when not a plausible lens. */
function asLensMm(value: unknown): number | null {
  const mm = typeof value === "number" || typeof value === "bigint" ? Number(value) : typeof value === "string" ? parseFloat(value) : NaN;
  return Number.isFinite(mm) && mm >= PLAUSIBLE_LENS_MM[0] && mm <= PLAUSIBLE_LENS_MM[1] ? mm : null;
}

/** The focal-length tag in one `meta` box (QuickTime keys + item list), or null. */
function lensInMeta(meta: AnyBox | undefined): number | null {
  const keys = meta?.boxes?.find((b) => b.type === "keys") as KeysBox | undefined;
  const ilst = meta?.boxes?.find((b) => b.type === "ilst") as IlstBox | undefined;
  if (!keys || !ilst) return null;
  for (const [index, name] of Object.entries(keys.keys)) {
    // mp4box keeps each key's namespace in front of it ("mdta" for these).
    if (name.replace(/^mdta/, "") !== FOCAL_LENGTH_35MM_KEY) continue;
    return asLensMm(ilst.list[Number(index)]?.value);
  }
  return null;
}

const child = (box: AnyBox | undefined, type: string) => box?.boxes?.find((b) => b.type === type);

/**
 * The 35 mm-equivalent focal length (mm) the file says it was filmed with: the video track's tag
 * first, then the movie's own (`moov/meta` or `moov/udta/meta`); null when none is there, the tag
 * names no plausible lens, or the file is not an MP4/QuickTime file it can read.
 */
export async function readLens35mm(path: string): Promise<number | null> {
  let file: FileHandle | null = null;
  try {
    file = await open(path, "r");
    const at = await findMovieBox(file);
    if (!at || at.size > MAX_MOVIE_BOX_BYTES) return null;
    const bytes = new Uint8Array(at.size);
    await file.read(bytes, 0, at.size, at.start);
    // The movie box alone is enough for mp4box to parse its boxes (sample offsets are not used).
    const mp4 = createFile();
    mp4.onError = () => {};
    mp4.appendBuffer(MP4BoxBuffer.fromArrayBuffer(bytes.buffer, 0));
    mp4.flush();
    const moov = mp4.moov as unknown as (AnyBox & { traks?: AnyBox[] }) | undefined;
    if (!moov) return null;
    const video = (moov.traks ?? []).filter((t) => (child(child(t, "mdia"), "hdlr") as { handler?: string } | undefined)?.handler === "vide");
    for (const meta of [...video.map((t) => child(t, "meta")), child(moov, "meta"), child(child(moov, "udta"), "meta")]) {
      const mm = lensInMeta(meta);
      if (mm !== null) return mm;
    }
    return null;
  } catch {
    // A file this reader cannot parse simply names no lens; ffprobe decides whether it is a video.
    return null;
  } finally {
    await file?.close();
  }
}
