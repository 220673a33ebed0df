// Camera platforms whose links are accepted as sources. A platform link is
// recognised at submit (and stored with the platform's `source.type`); the job
// preparation later asks the platform for the direct video URL. Adding a
// platform means one more `PlatformResolver` in PLATFORMS (and its
// `source_type` value in the schema enum).
import type { PlatformResolver } from "./types";
import { veo } from "./veo";

export { PlatformResolveError, type FetchedPage, type PageFetcher, type PlatformResolver } from "./types";

export const PLATFORMS: readonly PlatformResolver[] = [veo];

export function platformFor(url: URL): PlatformResolver | null {
  return PLATFORMS.find((p) => p.matches(url)) ?? null;
}

export function platformBySourceType(sourceType: string): PlatformResolver | null {
  return PLATFORMS.find((p) => p.sourceType === sourceType) ?? null;
}
