// The interface every camera platform implements (see index.ts).
export type Fetcher = (input: string, init?: RequestInit) => Promise<Response>;

export interface PlatformResolver {
  /** The `source.type` value sessions from this platform carry. */
  readonly sourceType: "veo";
  /** Whether `url` is a link of this platform (a match page or a CDN video link). */
  matches(url: URL): boolean;
  /**
   * The direct MP4 URL behind `url`. Throws `PlatformResolveError` when the
   * page is unreachable or holds no video. `fetcher` makes the outbound calls
   * (the caller applies its URL-safety policy to what comes back).
   */
  resolveMediaUrl(url: URL, fetcher: Fetcher): Promise<string>;
}

export class PlatformResolveError extends Error {
  constructor(
    message: string,
    /** Maps onto the session's `error.code`. */
    readonly code: "source_invalid" | "source_unavailable",
  ) {
    super(message);
    this.name = "PlatformResolveError";
  }
}

