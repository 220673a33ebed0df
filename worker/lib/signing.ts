// HMAC-SHA256 signatures for URLs that carry their own credential (upload
// URLs, media URLs, hub share links). Each use signs a message that starts with
// its own purpose label, so a signature minted for one kind of URL never
// verifies as another.
import type { Env } from "../env";
import { ApiError } from "../errors";

const encoder = new TextEncoder();
const keyCache = new Map<string, Promise<CryptoKey>>();

/** An HMAC-SHA256 key for raw secret bytes, imported once per isolate. */
export function hmacKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const bytes = typeof secret === "string" ? encoder.encode(secret) : secret;
  const cacheKey = typeof secret === "string" ? `s:${secret}` : `b:${toBase64Url(bytes)}`;
  let key = keyCache.get(cacheKey);
  if (!key) {
    key = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keyCache.set(cacheKey, key);
  }
  return key;
}

/** The key of signed media and upload URLs (`MEDIA_SIGNING_SECRET`). */
export function mediaSigningKey(env: Env): Promise<CryptoKey> {
  const secret = env.MEDIA_SIGNING_SECRET;
  if (!secret || secret.length < 16) {
    throw new ApiError("service_misconfigured", "Signed URLs are disabled: set the MEDIA_SIGNING_SECRET secret (16+ characters).");
  }
  return hmacKey(secret);
}

export function toBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  let binary = "";
  for (const b of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null; // 32 bytes, unpadded
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  // The last character carries 2 unused bits: only the canonical spelling is accepted, so an
  // edited signature is never taken for the original.
  return toBase64Url(bytes) === text ? bytes : null;
}

/** Raw HMAC-SHA256 of `message` under `key`. */
export async function hmacBytes(key: CryptoKey, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
}

export async function signWithKey(key: CryptoKey, message: string): Promise<string> {
  return toBase64Url(await hmacBytes(key, message));
}

/** Constant-time check (`crypto.subtle.verify` compares the MACs in constant time). */
export async function verifyWithKey(key: CryptoKey, message: string, signature: string | undefined | null): Promise<boolean> {
  const bytes = signature ? fromBase64Url(signature) : null;
  if (!bytes) return false;
  return crypto.subtle.verify("HMAC", key, bytes, encoder.encode(message));
}

export async function signMessage(env: Env, message: string): Promise<string> {
  return signWithKey(await mediaSigningKey(env), message);
}

export async function verifyMessage(env: Env, message: string, signature: string | undefined | null): Promise<boolean> {
  return verifyWithKey(await mediaSigningKey(env), message, signature);
}
