// A job's options and rosters keep their type from submit to analysis (contract/job-options.ts):
// the Worker refuses what the submit schema refuses, and a claimed job carries the same fields,
// typed, to the runner.
import { describe, expect, it } from "vitest";
import { DEFAULT_SUBMIT_OPTIONS, RosterSchema, SubmitOptionsSchema } from "../../contract/job-options";
import { ClaimedJob } from "../../contract/runner-api";

const claimed = (options: unknown, rosters: unknown = null) => ({
  id: "job_1",
  session: "sess_1",
  lease: { id: "lease_1", expires_at: 1_900_000_000 },
  attempt: 1,
  source: { type: "upload", download_url: "https://api.test/media/x" },
  options,
  rosters,
});

describe("job options across the contract", () => {
  it("a claimed job's options are the submit options: typed values, defaults filled", () => {
    const job = ClaimedJob.parse(claimed({ jerseys: "disabled" }));
    expect(job.options).toEqual({ ...DEFAULT_SUBMIT_OPTIONS, jerseys: "disabled" });
    expect(DEFAULT_SUBMIT_OPTIONS).toEqual({ session_type: "5v5", court_type: "full", camera_setup: "fixed", has_jerseys: true, jerseys: "auto" });
  });

  it("a claimed job with an option value the submit schema refuses is off the contract", () => {
    expect(ClaimedJob.safeParse(claimed({ court_type: "quarter" })).success).toBe(false);
    expect(ClaimedJob.safeParse(claimed({ has_jerseys: "yes" })).success).toBe(false);
    expect(ClaimedJob.safeParse(claimed({}, [{ team: 2, players: [{ jersey: "7" }] }])).success).toBe(false);
    expect(ClaimedJob.safeParse(claimed({}, [{ team: 0, players: [{ jersey: "seven" }] }])).success).toBe(false);
  });

  it("a claimed job's rosters come typed; a field a newer Worker adds is dropped, not refused (older runners keep working)", () => {
    const job = ClaimedJob.parse(claimed({ future_option: 1 }, [{ team: 1, name: "Blue", players: [{ jersey: "07", name: "Ana", shoe: "x" }] }]));
    expect(job.rosters).toEqual([{ team: 1, name: "Blue", players: [{ jersey: "07", name: "Ana" }] }]);
    expect(job.options).not.toHaveProperty("future_option");
  });

  it("submit stays strict: a typo in an option or a roster is refused", () => {
    expect(SubmitOptionsSchema.safeParse({ sesion_type: "5v5" }).success).toBe(false);
    expect(RosterSchema.safeParse({ team: 0, players: [{ jersey: "7", nmae: "x" }] }).success).toBe(false);
  });

  it("the options the analysis does not act on say so in the API reference", () => {
    const description = (field: keyof typeof SubmitOptionsSchema.shape) => SubmitOptionsSchema.shape[field].meta()?.description ?? "";
    expect(description("court_type")).toMatch(/^.*Recorded only/);
    for (const field of ["has_jerseys", "jerseys", "session_type", "camera_setup"] as const) expect(description(field)).not.toMatch(/Recorded only/);
    // camera_setup acts (issue 25): its description says what `fixed` does and when it falls back.
    expect(description("camera_setup")).toMatch(/`fixed` places every shot with one court registration.*fall back/);
    // session_type acts only through `solo` (issue 25): its description says which value acts.
    expect(description("session_type")).toMatch(/`solo` acts/);
  });
});
