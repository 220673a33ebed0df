// The Worker's only way out to other servers. Built once per request or
// batch by buildServices() and handed to whatever needs it, like the other
// services; its DNS-over-HTTPS resolver and the Stripe SDK use the same
// `runtimeFetch` wrapper. test/lint/runtime-receivers.test.ts fails the build
// if code under worker/ calls or passes the global `fetch` anywhere else.
//
// Why one place: in workerd `fetch` (like `crypto.subtle.*`, `scheduler.*`,
// `caches.*`) must be called with its receiver. Stored as an object property
// and called as a method (`ctx.fetcher(url)`, `this.fetcher(url)`) it throws
// "TypeError: Illegal invocation" — while vitest-pool-workers, whose `fetch`
// is not workerd's, lets it pass.
//
// Every request made here has a timeout, never follows a redirect on its own,
// and customer-supplied URLs go through the URL policy at every hop.
import { checkPublicUrl, type UrlPolicy } from "./url-safety";
import { isTimeout, loopbackConnection, type CheckedUrl, type HostResolver } from "../../contract/url-policy";

export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The runtime's `fetch`, always called as a plain function of the global scope (never detached
 * onto another object). Typed as `fetch` so SDKs that take a fetch function (Stripe) accept it.
 */
export const runtimeFetch: typeof fetch = (input, init) => fetch(input, init);

/** A request that got no usable answer. `message` is safe to show a customer; `cause` is for logs. */
export class OutboundError extends Error {
  constructor(
    readonly kind: "timeout" | "network",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "OutboundError";
  }
}

export interface OutboundRequest {
  method?: "GET" | "HEAD" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Limit for the whole exchange: connect, answer headers and any body read before it runs out. */
  timeoutMs: number;
}

export interface PublicRequest extends OutboundRequest {
  /** The request field the URL came from, named in errors (`source.url`, `url`). */
  param: string;
  /** Redirects followed, each hop checked again; a 3xx beyond them is returned as it is. */
  maxRedirects: number;
}

export interface PublicResponse {
  response: Response;
  /** The URL that answered (after redirects). */
  url: URL;
}

export class HttpClient {
  constructor(
    readonly resolver: HostResolver,
    /** Development opt-in (ALLOW_LOOPBACK_URLS): hosts that resolve only to loopback are allowed. */
    readonly allowLoopback: boolean,
    private readonly send: FetchFunction = runtimeFetch,
  ) {}

  private policy(param: string): UrlPolicy {
    return { resolver: this.resolver, allowLoopback: this.allowLoopback, param };
  }

  /** The URL policy alone (registration checks): 400 `url_not_allowed` or 503 `dns_unavailable`. */
  checkUrl(raw: string, param: string): Promise<CheckedUrl> {
    return checkPublicUrl(raw, this.policy(param));
  }

  /**
   * A request to a URL a customer gave us. Each hop is checked (throws the
   * errors of checkUrl, e.g. a redirect to a private address is
   * `url_not_allowed`); a network failure or timeout throws OutboundError.
   *
   * Where it connects: a deployed Worker's `fetch` cannot be pinned to an
   * address, so it connects by name (Cloudflare's network does not route to
   * private addresses, so a DNS answer that changes after the check cannot
   * reach an internal service). With the development opt-in, a host whose
   * checked addresses are all loopback is connected to at that address
   * (http, same port, original host in `X-Forwarded-Host`): that is how host
   * names reach local stand-ins under `wrangler dev`.
   */
  async fetchPublic(target: string | CheckedUrl, req: PublicRequest): Promise<PublicResponse> {
    // A URL the caller has just checked (checkUrl) is not looked up a second time.
    let current: string | CheckedUrl = target;
    for (let hop = 0; ; hop++) {
      const checked = typeof current === "string" ? await this.checkUrl(current, req.param) : current;
      const pinned = loopbackConnection(checked);
      const response = await this.exchange(pinned?.url ?? checked.url.href, {
        ...req,
        headers: pinned ? { ...req.headers, "X-Forwarded-Host": pinned.forwardedHost } : req.headers,
      });
      const location = response.headers.get("Location");
      if (response.status >= 300 && response.status < 400 && location && hop < req.maxRedirects) {
        await response.body?.cancel();
        current = new URL(location, checked.url).href;
        continue;
      }
      return { response, url: checked.url };
    }
  }

  private async exchange(url: string, req: OutboundRequest): Promise<Response> {
    try {
      return await this.send(url, {
        method: req.method ?? "GET",
        headers: req.headers,
        body: req.body,
        redirect: "manual",
        signal: AbortSignal.timeout(req.timeoutMs),
      });
    } catch (err) {
      if (isTimeout(err)) throw new OutboundError("timeout", `no answer within ${req.timeoutMs / 1000} s`, { cause: err });
      throw new OutboundError("network", "the connection failed", { cause: err });
    }
  }
}
