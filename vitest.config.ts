import path from "node:path";
import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";

// Five projects: the Worker inside workerd (real local D1, R2, DOs, queues),
// the GPU runner and analysis pipeline in Node (real ffmpeg, onnxruntime-node),
// the runner API contract and the box-score rule (test/contract), end-to-end
// runs of the whole system (wrangler dev + runner processes), and static
// checks of the sources and of the OpenAPI documents (test/lint).
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            main: "./worker/index.ts",
            wrangler: { configPath: "./wrangler.toml", environment: "staging" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "drizzle/migrations")),
                OPERATOR_TOKEN: "op_test_operator_token_0123456789abcdef",
                MEDIA_SIGNING_SECRET: "test-media-signing-secret-0123456789",
                ALLOW_LOOPBACK_URLS: "true",
                DOH_URL: inject("dohUrl"),
                HUB_BASE_URL: "https://hub.test",
                // The local stand-in for Stripe (services/payments.ts) and the secret its confirmations are signed with.
                LOCAL_PAYMENTS: "true",
                STRIPE_WEBHOOK_SECRET: "whsec_test_0123456789abcdef0123456789abcdef",
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // vitest's 5 s default is too short on a busy 2-core machine (CI shares it with other
          // work): workerd answers every request, just later. A hung test still fails, after 30 s.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ["./test/worker/setup.ts"],
          globalSetup: ["./test/support/global-setup.ts"],
        },
      },
      {
        test: {
          name: "runner",
          include: ["test/gpu-runner/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "contract",
          testTimeout: 30_000,
          include: ["test/contract/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "lint",
          testTimeout: 30_000,
          include: ["test/lint/**/*.test.ts"],
          environment: "node",
        },
        // The OpenAPI tests build the documents from worker/apis.ts in Node, where the Durable Object
        // modules' `cloudflare:workers` import needs a stand-in.
        resolve: { alias: { "cloudflare:workers": path.join(import.meta.dirname, "test/support/cloudflare-workers-node.ts") } },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
