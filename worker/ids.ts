// Public identifiers: `<prefix>_<24 base62 chars>` (~142 bits of randomness),
// unguessable so an id alone never grants access to another organization.
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export type IdPrefix =
  | "org" | "grp" | "key" | "rt" | "up" | "sess" | "hl" | "shot" | "plr"
  | "job" | "cg" | "ue" | "we" | "evt" | "whd" | "req" | "lease" | "tul";

export function randomToken(length: number): string {
  // Rejection sampling keeps the distribution uniform over the 62 symbols.
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(24)}`;
}

export function isIdOf(prefix: IdPrefix, value: string): boolean {
  return new RegExp(`^${prefix}_[0-9A-Za-z]{8,64}$`).test(value);
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
