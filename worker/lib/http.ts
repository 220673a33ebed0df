import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";

/**
 * An OpenAPIHono whose request validation failures become `parameter_invalid`
 * with `param` naming the field path (e.g. `source.url`).
 */
export function createOpenApiApp() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const param = issue.path.map(String).join(".");
      const message = param ? `Invalid \`${param}\`: ${issue.message}` : `Invalid request: ${issue.message}`;
      throw new ApiError("parameter_invalid", message, param ? { param } : {});
    },
  });
}
