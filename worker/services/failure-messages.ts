// What a failed session tells the customer. Runners report a code and a
// sentence; the sentence is shown as `error.message`, so it must never carry
// a runner's file paths, stack traces, tool output or internal host names.
// Runners write customer sentences themselves (contract/failure-messages.ts); this is
// the API's own check on what arrives, since many runners of many versions
// share one API. A message that looks internal is replaced by the code's
// standard sentence, and the original goes to the Worker's log under the
// request and job id.
import { FAILURE_MESSAGES } from "../../contract/failure-messages";
import type { SessionErrorCode } from "../../contract/runner-api";
import { classifyAddress } from "../../contract/url-policy";

const INTERNAL_PATTERNS: RegExp[] = [
  // An absolute file path (not the path part of a URL, which follows a host name).
  /(?<![\w.:/\]-])\/[\w.@+-]+\/[\w.@+/-]*/,
  /\b[A-Za-z]:\\[\w\\]/, // Windows path
  /\bfile:\/\//i,
  /^\s*at\s|\n\s*at\s|\(\S+:\d+:\d+\)/, // stack frames
  /\bE(?:CONNREFUSED|CONNRESET|NOTFOUND|TIMEDOUT|ACCES|NOENT|PIPE|HOSTUNREACH|NETUNREACH|AI_AGAIN|ADDRINUSE)\b/,
  /\b(?:ffmpeg|ffprobe|onnxruntime|node_modules)\b/i,
  /\blocalhost\b|\.(?:internal|local|lan|corp|intranet)\b/i,
];

const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;

/** Whether a runner's message shows internals a customer must not see. */
export function looksInternal(message: string): boolean {
  if (INTERNAL_PATTERNS.some((re) => re.test(message))) return true;
  // A private or loopback address is the runner's network, not the customer's link.
  return (message.match(IPV4) ?? []).some((ip) => classifyAddress(ip) !== "public");
}

/** The message to store on a failed session for what a runner reported. */
export function customerFailureMessage(code: SessionErrorCode, reported: string): string {
  const message = reported.trim();
  if (message.length === 0 || looksInternal(message)) return FAILURE_MESSAGES[code];
  return message;
}
