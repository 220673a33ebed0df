// HMAC-SHA256 signatures for URLs that carry their own credential (upload
// URLs, media URLs). Each use signs a message that starts with its own purpose
// label, so a signature minted for one kind of URL never verifies as another.
import type { Env } from "../env";
import { ApiError } from "../errors";

const encoder = new TextEncoder();
const keyCache = new Map<string, Promise<CryptoKey>>();

function signingKey(env: Env): Promise<CryptoKey> {
  const secret = env.MEDIA_SIGNING_SECRET;
  if (!secret || secret.length < 16) {
    throw new ApiError("service_misconfigured", "Signed URLs are disabled: set the MEDIA_SIGNING_SECRET secret (16+ characters).");
  }
  let key = keyCache.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keyCache.set(secret, key);
  }
  return key;
}

function toBase64Url(bytes: ArrayBuffer): string {
  let binary = "";
  for (const b of new Uint8Array(bytes)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null; // 32 bytes, unpadded
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

export async function signMessage(env: Env, message: string): Promise<string> {
  return toBase64Url(await crypto.subtle.sign("HMAC", await signingKey(env), encoder.encode(message)));
}

/** Constant-time check (`crypto.subtle.verify` compares the MACs in constant time). */
export async function verifyMessage(env: Env, message: string, signature: string | undefined | null): Promise<boolean> {
  const key = await signingKey(env);
  const bytes = signature ? fromBase64Url(signature) : null;
  if (!bytes) return false;
  return crypto.subtle.verify("HMAC", key, bytes, encoder.encode(message));
}
