// What the public and runner OpenAPI documents share: the version, licence and servers, the examples
// of every operation and the response headers the middleware adds. Both documents are built here,
// so a rule about them holds for both.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { withExamples, type OperationExample } from "./examples";
import { withResponseHeaders } from "./response-headers";

export const API_VERSION = "1.0.0";

/**
 * The API is the operator's own, used under the service's terms; `LicenseRef-…` is the SPDX form for a
 * licence without an SPDX id (OpenAPI 3.1 `license.identifier` takes an SPDX expression).
 */
export const API_LICENSE = { name: "Proprietary", identifier: "LicenseRef-Proprietary" };

/** Relative: each deployment (local, staging, production) serves the document that describes it. */
export const API_SERVERS = [{ url: "/", description: "The server this document was fetched from" }];

export function openApiDocument(
  app: Pick<OpenAPIHono, "getOpenAPI31Document">,
  info: { title: string; description: string },
  examples: Record<string, OperationExample>,
) {
  const generated = app.getOpenAPI31Document({ openapi: "3.1.0", info: { ...info, version: API_VERSION, license: API_LICENSE }, servers: API_SERVERS });
  return withResponseHeaders(withExamples(generated, examples));
}
