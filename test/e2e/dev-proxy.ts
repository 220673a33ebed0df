// Requests that `wrangler dev` drops before they reach the Worker, and resending them.
//
// `wrangler dev` runs two workerd processes: a proxy on the public port and the runtime that runs
// the Worker. The proxy forwards each request over a pool of keep-alive connections. Both ends use
// kj's 5-second defaults: the proxy reuses a pooled connection idle for less than 5 s, and the
// runtime closes a connection that has had no new request for 5 s. On a starved CPU (two busy cores,
// several test stacks at once) the runtime wakes up late, finds both that 5-second timer expired
// and a new request waiting on the same connection, and closes the connection with the request
// unread. The Worker never sees that request; the proxy's fetch fails ("Network connection lost.")
// and it answers for the Worker with a bare `503 "Your worker restarted mid-request. … Only GET or
// HEAD requests are retried automatically."`, `Retry-After: 0`, no `Request-Id` (it retries GET and
// HEAD itself, so only requests with a method like POST, PUT or PATCH surface). Nothing restarted,
// and nothing the Worker does can prevent it: the request never arrives. Production has no such
// proxy. Upstream: cloudflare/workers-sdk#14641 (open); #15252 retries only bodiless requests.
//
// The hop in front of the proxy has the same race: Node's fetch reuses a connection idle for less
// than 4 s, the proxy (kj again) closes one idle for 5 s, so a proxy starved for over a second
// closes a connection the client has just sent a request on, and fetch fails with ECONNRESET or
// "other side closed" before any answer.
//
// What a client of the local stack does about it is what the proxy's message asks: send the request
// again. `sendPastDevProxyDrops` does that, and only for those two cases: every answer the Worker
// gives carries a `Request-Id`, so the proxy's answer is one without it; and a connection closed
// before any answer came back is one the request may never have crossed. An answer that started
// and then broke is not resent: that is the failure the refusals test looks for.

/** The start of the body `wrangler dev`'s proxy answers with when it could not deliver a request. */
export const DEV_PROXY_DROP_MESSAGE = "Your worker restarted mid-request.";

/** At most this many sends per request (so four resends); a drop rarely repeats on the next one. */
export const DEV_PROXY_MAX_SENDS = 5;

export interface Delivered {
  /** The last answer: the Worker's, unless every send was dropped. */
  res: Response;
  /** How many sends were dropped (by the proxy, or a connection closed unanswered) before `res`. */
  dropped: number;
}

/**
 * Whether `res` is the dev proxy's own answer for a request it could not deliver (it reads the body
 * only of a `503` without a `Request-Id`, which the Worker never sends).
 */
export async function isDevProxyDrop(res: Response): Promise<boolean> {
  if (res.status !== 503 || res.headers.has("Request-Id")) return false;
  return (await res.clone().text()).startsWith(DEV_PROXY_DROP_MESSAGE);
}

/** Connection errors of Node's fetch that mean the server closed the connection before answering. */
const CLOSED_BEFORE_ANSWER = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

/** Whether `err` is Node's fetch failing because the connection closed before any answer. */
export function isClosedBeforeAnswer(err: unknown): boolean {
  const code = ((err as { cause?: { code?: unknown } } | null)?.cause?.code ?? "") as string;
  return err instanceof TypeError && CLOSED_BEFORE_ANSWER.has(code);
}

/**
 * Sends a request through `wrangler dev`, sending it again (up to DEV_PROXY_MAX_SENDS in all) while
 * the proxy answers that it could not deliver it, or the connection closes before any answer.
 * `send` must build a new request, body included, each time it is called. When every send was
 * dropped, the last one's answer is returned or its error thrown.
 */
export async function sendPastDevProxyDrops(send: () => Promise<Response>, maxSends = DEV_PROXY_MAX_SENDS): Promise<Delivered> {
  let dropped = 0;
  for (;;) {
    const lastSend = dropped + 1 >= maxSends;
    let res: Response;
    try {
      res = await send();
    } catch (err) {
      if (lastSend || !isClosedBeforeAnswer(err)) throw err;
      dropped++;
      continue;
    }
    if (lastSend || !(await isDevProxyDrop(res))) return { res, dropped };
    await res.body?.cancel();
    dropped++;
  }
}
