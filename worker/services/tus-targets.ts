// A "tus target" is one file on its way into R2: a customer's upload today,
// a GPU runner's output (renditions, clips, artifacts) later. Each target is
// served at a signed URL, `/uploads/v1/<id>?sig=…`, that speaks tus 1.0.0 and
// single PUT; its state lives in one UploadState Durable Object (named by the
// target id) and its bytes in an R2 multipart upload. The limits and types are
// in lib/tus.ts; what the object writes to D1 on a transition is in
// durable-objects/upload-transitions.ts.
import type { Env } from "../env";
import { signMessage, verifyMessage } from "../lib/signing";
import type { TusTargetSpec, TusTargetStatus } from "../lib/tus";

export function tusTargetStub(env: Env, id: string) {
  return env.UPLOADS.get(env.UPLOADS.idFromName(id));
}

const signedMessage = (id: string) => `tus-target\n${id}`;

export async function signedUploadUrl(env: Env, baseUrl: string, id: string): Promise<string> {
  return `${baseUrl}/uploads/v1/${id}?sig=${await signMessage(env, signedMessage(id))}`;
}

export function verifyUploadSignature(env: Env, id: string, sig: string | undefined): Promise<boolean> {
  return verifyMessage(env, signedMessage(id), sig);
}

/**
 * Creates (idempotently) the target and returns its signed upload URL. This is
 * the entry point for other features that need a file sent into R2.
 */
export async function createTusTarget(env: Env, baseUrl: string, spec: TusTargetSpec): Promise<{ uploadUrl: string; status: TusTargetStatus }> {
  const status = await tusTargetStub(env, spec.id).init(spec);
  return { uploadUrl: await signedUploadUrl(env, baseUrl, spec.id), status };
}
