// Every cursor-paged list answers a `starting_after` that names none of its items the same way
// (README, "Errors"): 400 parameter_invalid, param starting_after. Another organization's ids are
// refused the same way (billing.test.ts, sessions-reads.test.ts).
import { describe, expect, it } from "vitest";
import { call, createOrg, expectError } from "./helpers";

const LISTS = [
  { path: "/v1/sessions", unknown: "sess_0000000000000000" },
  { path: "/v1/usage", unknown: "ue_0000000000000000" },
  { path: "/v1/events", unknown: "evt_0000000000000000" },
  { path: "/v1/webhook_endpoints", unknown: "we_0000000000000000" },
];

describe("starting_after naming no item of the list", () => {
  for (const list of LISTS) {
    it(`${list.path}: 400 parameter_invalid on starting_after`, async () => {
      const org = await createOrg();
      const error = await expectError(await call(`${list.path}?starting_after=${list.unknown}`, { key: org.key }), 400, "parameter_invalid", "starting_after");
      expect(error.message).toContain(list.unknown);
      expect(error.type).toBe("invalid_request_error");
    });
  }
});
