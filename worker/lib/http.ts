import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";

/**
 * An OpenAPIHono whose request validation failures become `parameter_invalid`
 * with `param` naming the field path (e.g. `source.url`). A field that was not
 * sent at all is named as missing, with any other missing fields, rather than
 * with the schema's complaint about its value (`undefined` is no enum option).
 */
export function createOpenApiApp() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const param = issue.path.map(String).join(".");
      const sent = (result as { data?: unknown }).data;
      const missing = result.error.issues.filter((i) => i.path.length > 0 && isMissing(sent, i.path)).map((i) => i.path.map(String).join("."));
      const message = !param
        ? `Invalid request: ${issue.message}`
        : missing.includes(param)
          ? `Missing required field \`${param}\`${missing.length > 1 ? ` (also missing: ${missing.filter((m) => m !== param).map((m) => `\`${m}\``).join(", ")})` : ""}.`
          : `Invalid \`${param}\`: ${issue.message}`;
      throw new ApiError("parameter_invalid", message, param ? { param } : {});
    },
  });
}

/** Whether the field at `path` is absent from what was sent (its parent an object without it). */
function isMissing(sent: unknown, path: ReadonlyArray<PropertyKey>): boolean {
  let at: unknown = sent;
  for (const key of path.slice(0, -1)) {
    if (at === null || typeof at !== "object") return false;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at !== null && typeof at === "object" && !Array.isArray(at) && (at as Record<PropertyKey, unknown>)[path[path.length - 1]] === undefined;
}
