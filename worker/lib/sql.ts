// Conditional inserts for D1 batches. A batch is one transaction but does not
// stop when a statement changes nothing, so rows that must exist together (a
// session, its hold, its job) are each inserted `… SELECT … WHERE <gate>`: when
// the gate is false, none of them is written.
import { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database } from "../env";

const dialect = new SQLiteAsyncDialect();

/** `insert` (a drizzle `insert(...).values({...})` of one row) rewritten to insert only when `condition` holds. */
export function insertWhere(db: Database, insert: { toSQL(): { sql: string; params: unknown[] } }, condition: SQL): D1PreparedStatement {
  const q = insert.toSQL();
  const marker = ") values (";
  const at = q.sql.lastIndexOf(marker);
  if (at < 0 || !q.sql.endsWith(")")) throw new Error(`insertWhere expects a single-row insert, got: ${q.sql}`);
  const cond = dialect.sqlToQuery(condition);
  const text = `${q.sql.slice(0, at + 1)} select ${q.sql.slice(at + marker.length, -1)} where ${cond.sql}`;
  return db.$client.prepare(text).bind(...q.params, ...cond.params);
}

/** A drizzle SQL fragment as a D1 statement, for raw D1 batches. */
export function statement(db: Database, query: SQL | { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const q = query instanceof SQL ? dialect.sqlToQuery(query) : query.toSQL();
  return db.$client.prepare(q.sql).bind(...q.params);
}
