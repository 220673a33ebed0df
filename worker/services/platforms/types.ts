// The interface every camera platform implements (see index.ts).

/** A page read through the caller's outbound client: URL policy, timeout and size cap already applied. */
export interface FetchedPage {
  status: number;
  contentType: string;
  /** The body, read up to the caller's cap; empty for a status that is not 2xx. */
  text: string;
}

/**
 * Reads one page. Throws on a refused URL, a network failure or timeout, or a
 * page over the size cap; the job preparation turns those into the session's
 * error (or a retry).
 */
export type PageFetcher = (url: string) => Promise<FetchedPage>;

export interface PlatformResolver {
  /** The `source.type` value sessions from this platform carry. */
  readonly sourceType: "veo";
  /** Whether `url` is a link of this platform (a match page or a CDN video link). */
  matches(url: URL): boolean;
  /**
   * The direct MP4 URL behind `url`. Throws `PlatformResolveError` when the
   * page holds no video or answers with an error. `fetchPage` makes the
   * outbound calls (the caller checks the returned link like any other).
   */
  resolveMediaUrl(url: URL, fetchPage: PageFetcher): Promise<string>;
}

export class PlatformResolveError extends Error {
  constructor(
    message: string,
    /** Maps onto the session's `error.code`. */
    readonly code: "source_invalid" | "source_unavailable",
    /** The platform's own trouble (5xx): worth retrying before failing the session. */
    readonly transient = false,
  ) {
    super(message);
    this.name = "PlatformResolveError";
  }
}
