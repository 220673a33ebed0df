// The runner CLI's refusals: the development setting fails closed (loopback links are for a
// runner serving a local API only), bad options exit 2, an unusable work directory exits 1.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const runMain = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "gpu-runner/main.ts"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, HOOPS_FORCE_CPU: "1", ...env },
    timeout: 60_000,
  });

describe("runner CLI", () => {
  it("refuses the loopback setting (flag or env) against an API that is not on this machine", () => {
    for (const [args, env] of [
      [["--allow-loopback-urls"], {}],
      [[], { RUNNER_ALLOW_LOOPBACK_URLS: "true" }],
    ] as const) {
      const run = runMain(["--api-url", "https://api.example.com", "--token", "hr_test", ...args], env);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--allow-loopback-urls is for local development/);
    }
  });

  it("stops with exit 1 and says why when its work directory cannot be created", () => {
    const run = runMain(["--api-url", "http://127.0.0.1:9", "--token", "hr_test", "--work-dir", "/dev/full/hoops-runner"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/The work directory \/dev\/full\/hoops-runner cannot be created: ENOTDIR/);
  });

  it("refuses a --doh-url that is not a URL", () => {
    const run = runMain(["--api-url", "http://127.0.0.1:9", "--token", "hr_test", "--doh-url", "cloudflare"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--doh-url/);
  });
});
