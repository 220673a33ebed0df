// Signed media URLs: an R2 object handed out as an expiring HTTPS URL served by
// this Worker (`/media/<key>?exp=…&sig=…`), so no API key ever travels in a
// URL. Used for session video, renditions, previews, clips and artifacts, and
// for the GPU runner's download of uploads.
import type { Env } from "../env";
import { signMessage, verifyMessage } from "../lib/signing";

export const MEDIA_PATH_PREFIX = "/media/";

/** The origin signed URLs point at: `PUBLIC_BASE_URL` when set, else the request's own. */
export function publicBaseUrl(env: Env, requestUrl: string): string {
  return (env.PUBLIC_BASE_URL ?? new URL(requestUrl).origin).replace(/\/$/, "");
}

const mediaMessage = (r2Key: string, exp: number, filename: string) => `media\n${r2Key}\n${exp}\n${filename}`;

export function mediaPathFor(r2Key: string): string {
  return MEDIA_PATH_PREFIX + r2Key.split("/").map(encodeURIComponent).join("/");
}

export async function signMediaUrl(
  env: Env,
  baseUrl: string,
  r2Key: string,
  opts: { expiresInSeconds: number; filename?: string; now?: number },
): Promise<string> {
  const exp = (opts.now ?? Math.floor(Date.now() / 1000)) + opts.expiresInSeconds;
  const params = new URLSearchParams({ exp: String(exp) });
  if (opts.filename !== undefined) params.set("filename", opts.filename);
  params.set("sig", await signMessage(env, mediaMessage(r2Key, exp, opts.filename ?? "")));
  return `${baseUrl.replace(/\/$/, "")}${mediaPathFor(r2Key)}?${params}`;
}

export type MediaUrlCheck = { valid: true; exp: number; filename?: string } | { valid: false; reason: "signature" | "expired" };

/** Checks a media URL's query against its key; expiry is judged only after the signature holds. */
export async function verifyMediaUrl(env: Env, r2Key: string, query: URLSearchParams, now: number): Promise<MediaUrlCheck> {
  const expText = query.get("exp") ?? "";
  const filename = query.get("filename") ?? undefined;
  if (!/^\d{1,12}$/.test(expText)) return { valid: false, reason: "signature" };
  const exp = Number(expText);
  if (!(await verifyMessage(env, mediaMessage(r2Key, exp, filename ?? ""), query.get("sig")))) return { valid: false, reason: "signature" };
  if (now >= exp) return { valid: false, reason: "expired" };
  return { valid: true, exp, ...(filename !== undefined ? { filename } : {}) };
}
