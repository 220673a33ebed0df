// Uploads one output file resumably with tus-js-client: the API reserves a
// tus target per (session, lease, output name), so a retried upload within a
// job resumes where the last one stopped instead of starting over.
import { createReadStream, statSync } from "node:fs";
import * as tus from "tus-js-client";
import type { RunnerApi } from "../api";

/** Chunk size for output uploads (see docs/uploads.md for why). */
export const OUTPUT_CHUNK_BYTES = 50 * 1024 * 1024;

export interface OutputFile {
  /** Name under the session's outputs, e.g. `renditions/720p.mp4`. */
  name: string;
  path: string;
  contentType: string;
}

export async function uploadOutput(api: RunnerApi, jobId: string, leaseId: string, file: OutputFile, signal?: AbortSignal): Promise<void> {
  const size = statSync(file.path).size;
  const target = await api.createOutput(jobId, leaseId, file.name, size, file.contentType);
  // A cancel that arrived while the target was being reserved: an abort listener added now would
  // never fire, and the upload would run to the end.
  if (signal?.aborted) throw new Error("aborted");
  if (target.offset >= size) return; // already complete
  let onAbort: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      // Only set the options we mean: tus-js-client treats a key set to
      // `undefined` differently from a missing one (chunkSize especially).
      const upload = new tus.Upload(createReadStream(file.path, { start: 0 }), {
        uploadUrl: target.upload_url,
        uploadSize: size,
        chunkSize: Math.min(OUTPUT_CHUNK_BYTES, size),
        retryDelays: [0, 1000, 3000, 10000, 30000],
        metadata: { filename: file.name, filetype: file.contentType },
        onError: reject,
        onSuccess: () => resolve(),
      });
      onAbort = () => {
        void upload.abort(false);
        reject(new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      upload.start();
    });
  } finally {
    // One job uploads dozens of files through the same signal.
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
