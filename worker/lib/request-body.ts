// Request bodies that a refusal leaves unread. A Worker that answers before reading the body it was
// sent (a tus PATCH to a finished or locked upload, a PUT of the wrong length, a failed
// authentication, an unknown route) leaves the client still sending. Under `wrangler dev` the
// answer then often never arrives whole: its proxy in front of the Worker sees the connection drop
// and answers a bare `503 "Your worker restarted mid-request"` (or the client sees an empty body or
// a reset) instead of the error envelope. Measured with test/e2e/refusals.test.ts:
//   - reading the rest of the body to its end, then answering: every answer arrives intact;
//   - `body.cancel()` before answering: worse than leaving it (about half the answers were lost);
//   - answering first and reading the rest in `waitUntil`: answers still lost.
// So a refusal reads (and throws away) the rest of the body before it answers. The cost is the
// client's own upload time: the error reaches it once it has sent the body, which HTTP/1.1 upload
// clients (tus-js-client, browsers' XHR) wait for anyway.
// The same bare 503 also comes, on a starved machine, for requests that never reach the Worker:
// `wrangler dev`'s proxy and runtime race on an idle keep-alive connection (README, "A bare 503
// under npm start"; test/e2e/dev-proxy.ts). Nothing here can help those; local clients resend them.

/**
 * At most this much is read to discard a body: Cloudflare's request limit on the Free and Pro
 * plans (see lib/tus.ts), so on the platform a refused body is always read whole. Only
 * `wrangler dev` lets a larger one through; past this bound it is cancelled instead.
 */
export const DISCARD_LIMIT_BYTES = 100_000_000;

/** Reads a body to its end and throws the bytes away; a body that errors (the client left) just ends. */
export async function discardBody(body: ReadableStream<Uint8Array> | null | undefined): Promise<void> {
  if (!body || body.locked) return;
  const reader = body.getReader();
  let discarded = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
      if (discarded > DISCARD_LIMIT_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to read.
  } finally {
    reader.releaseLock();
  }
}

/** A request's body that nothing has read, started to read, or handed on (to a Durable Object), or null. */
export function unreadBody(request: Request): ReadableStream<Uint8Array> | null {
  return request.body && !request.bodyUsed && !request.body.locked ? request.body : null;
}
