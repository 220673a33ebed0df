import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Storage is isolated per test file; applying migrations is idempotent.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
