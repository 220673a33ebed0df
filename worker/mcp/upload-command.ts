// The command an assistant runs on the user's machine to send a file to an upload URL. The video
// never passes through the tool server: it goes from the user's disk straight to the upload
// destination, by the method the upload answer names (`upload_method`: a single PUT when the edge
// accepts the body in one request, else tus PATCHes of `chunk_size`).
import type { UploadMethod } from "../lib/tus";

/** Quotes one argument for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The tus loop: asks the server for the offset it has (so running the command again resumes),
 * then sends the rest in chunks, printing progress. Written without single quotes so it can itself
 * be single-quoted as the script of `sh -c`.
 */
const TUS_SCRIPT = [
  `f="$1"; u="$2"; size=$3; chunk=$4`,
  `off=$(curl -sS --fail-with-body -I -H "Tus-Resumable: 1.0.0" "$u" | tr -d "\\r" | awk -F": " "tolower(\\$1)==\\"upload-offset\\"{print \\$2}")`,
  `[ -n "$off" ] || { echo "could not read the upload offset" >&2; exit 1; }`,
  `while [ "$off" -lt "$size" ]; do`,
  ` tail -c +$((off + 1)) "$f" | head -c "$chunk" | curl -sS --fail-with-body -o /dev/null -X PATCH -H "Tus-Resumable: 1.0.0" -H "Content-Type: application/offset+octet-stream" -H "Upload-Offset: $off" --data-binary @- "$u" || exit 1`,
  ` off=$((off + chunk)); [ "$off" -gt "$size" ] && off=$size; echo "sent $off of $size bytes"`,
  `done`,
].join("\n");

/** The command for an upload as `POST /v1/uploads` answered it: its method, size and chunk size. */
export function uploadCommand(opts: { path: string; uploadUrl: string; contentType: string; size: number; method: UploadMethod; chunkSize: number }): string {
  if (opts.method === "put") {
    return `curl -sS --fail-with-body -X PUT -H ${shellQuote(`Content-Type: ${opts.contentType}`)} --upload-file ${shellQuote(opts.path)} ${shellQuote(opts.uploadUrl)}`;
  }
  return `sh -c ${shellQuote(TUS_SCRIPT)} hoops-upload ${shellQuote(opts.path)} ${shellQuote(opts.uploadUrl)} ${opts.size} ${opts.chunkSize}`;
}

const CONTENT_TYPES: Record<string, string> = { mp4: "video/mp4", m4v: "video/mp4", mov: "video/quicktime", qt: "video/quicktime" };

/** The upload content type for a file name, from its extension: MP4 or MOV, else null. */
export function contentTypeForPath(path: string): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext ? (CONTENT_TYPES[ext] ?? null) : null;
}

/** The file name part of a path written on any system. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}
