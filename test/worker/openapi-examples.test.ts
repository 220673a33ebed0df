// Every operation of the public and runner API references carries an example request (when it takes
// a body) and an example answer, and every example is valid against the operation's own schemas, so
// /docs never shows an example the API would refuse or could not produce.
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { call } from "./helpers";

type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, unknown> };

async function load(path: string): Promise<Doc> {
  const res = await call(path);
  expect(res.status).toBe(200);
  return (await res.json()) as Doc;
}

function validate(doc: Doc, schema: unknown, value: unknown) {
  const result = new Validator({ ...(schema as object), components: doc.components } as never, "2020-12", false).validate(value);
  return result.errors.filter((e) => e.keyword !== "$ref" && e.keyword !== "properties" && e.keyword !== "items").map((e) => `${e.instanceLocation}: ${e.error}`);
}

for (const [name, path] of [["public API", "/v1/openapi.json"], ["runner API", "/runner/v1/openapi.json"]] as const) {
  describe(`${name} reference examples`, () => {
    it("has an example answer for every operation, and an example body for every operation that takes one", async () => {
      const doc = await load(path);
      const missing: string[] = [];
      let operations = 0;
      for (const [p, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          operations++;
          const body = op.requestBody?.content?.["application/json"];
          if (body && body.example === undefined) missing.push(`${method.toUpperCase()} ${p}: request`);
          if (op.responses?.["200"]?.content?.["application/json"]?.example === undefined) missing.push(`${method.toUpperCase()} ${p}: response`);
        }
      }
      expect(operations).toBeGreaterThanOrEqual(name === "public API" ? 16 : 6);
      expect(missing).toEqual([]);
    });

    it("every example is valid against its schema", async () => {
      const doc = await load(path);
      const invalid: string[] = [];
      for (const [p, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          const body = op.requestBody?.content?.["application/json"];
          if (body?.example !== undefined) for (const e of validate(doc, body.schema, body.example)) invalid.push(`${method} ${p} request ${e}`);
          const ok = op.responses?.["200"]?.content?.["application/json"];
          if (ok?.example !== undefined) for (const e of validate(doc, ok.schema, ok.example)) invalid.push(`${method} ${p} response ${e}`);
          for (const param of op.parameters ?? []) {
            if (param.example !== undefined) for (const e of validate(doc, param.schema, param.example)) invalid.push(`${method} ${p} ${param.name} ${e}`);
          }
        }
      }
      expect(invalid).toEqual([]);
    });
  });
}

describe("validating examples", () => {
  it("catches an example that does not match (the check can fail)", async () => {
    const doc = await load("/v1/openapi.json");
    const balance = doc.paths["/v1/balance"].get.responses["200"].content["application/json"];
    expect(validate(doc, balance.schema, { ...balance.example, credit_cents: "lots" })).not.toEqual([]);
    expect(validate(doc, balance.schema, balance.example)).toEqual([]);
  });
});

describe("the submit options in the API reference", () => {
  it("are the contract's components, and the options the analysis does not act on say they are recorded only", async () => {
    const doc = await load("/v1/openapi.json");
    const schemas = (doc.components as { schemas: Record<string, any> }).schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(["SubmitOptions", "Roster", "RosterPlayer", "Metadata"]));
    const props = schemas.SubmitOptions.properties;
    expect(props.court_type.description).toContain("Recorded only");
    expect(props.session_type.description).toContain("`solo` acts");
    // camera_setup acts (issue 25): `fixed` places every shot with one court registration, with its fallback.
    expect(props.camera_setup.description).toContain("`fixed` places every shot with one court registration");
    for (const field of ["has_jerseys", "jerseys", "session_type", "camera_setup"]) expect(props[field].description, field).not.toContain("Recorded only");
    expect(schemas.SubmitOptions.additionalProperties).toBe(false);
  });
});
