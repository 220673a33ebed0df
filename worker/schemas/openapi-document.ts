// What the public and runner OpenAPI documents share: the version, licence and servers, the examples
// of every operation, the response headers the middleware adds, and how request bodies state their
// defaults. Both documents are built here, so a rule about them holds for both.
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
  return withRequestDefaultsInWords(withResponseHeaders(withExamples(generated, examples)));
}

type Json = Record<string, any>;

/** The names of the schema components `root` refers to, directly or through other components. */
function componentsReachable(root: unknown, schemas: Json, into = new Set<string>()): Set<string> {
  if (Array.isArray(root)) for (const item of root) componentsReachable(item, schemas, into);
  else if (root && typeof root === "object") {
    const ref = (root as Json).$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const name = ref.slice("#/components/schemas/".length);
      if (!into.has(name)) {
        into.add(name);
        componentsReachable(schemas[name], schemas, into);
      }
    }
    for (const value of Object.values(root)) componentsReachable(value, schemas, into);
  }
  return into;
}

/** `Default: \`5v5\`.` */
const inWords = (value: unknown) => `Default: \`${typeof value === "string" ? value : JSON.stringify(value)}\`.`;

/**
 * A component that only request bodies use states each field's default in its description instead of
 * in `default`. openapi-typescript (with its default flags) types a component property that has a
 * `default` as always present: true of an answer, which the server fills in, but in a request it would
 * make a client send every defaulted field (every submit option, to submit `{source}` alone). The
 * fields stay optional (not `required`) and the zod schemas still apply the defaults.
 */
function withRequestDefaultsInWords<T extends { paths?: Json; components?: Json }>(doc: T): T {
  const schemas: Json = doc.components?.schemas ?? {};
  const operations = Object.values(doc.paths ?? {}).flatMap((ops: Json) => Object.values(ops) as Json[]);
  const requested = componentsReachable(operations.map((op) => op.requestBody), schemas);
  const answered = componentsReachable(operations.map((op) => op.responses), schemas);
  for (const name of requested) {
    if (answered.has(name)) continue;
    for (const property of Object.values((schemas[name]?.properties ?? {}) as Json)) {
      if (!property || typeof property !== "object" || !("default" in property)) continue;
      property.description = [property.description, inWords(property.default)].filter(Boolean).join(" ");
      delete property.default;
    }
  }
  return doc;
}
