// The D1 database as drizzle sees it. Below env.ts, so that modules env.ts
// names (the upload Durable Object and the D1 rows it mirrors into) can use it
// without an import cycle.
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../../drizzle/schema";

export type Database = DrizzleD1Database<typeof schema> & { $client: D1Database };

export function openDatabase(d1: D1Database): Database {
  return drizzle(d1, { schema });
}
