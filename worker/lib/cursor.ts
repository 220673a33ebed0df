import { and, eq, lt, or, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * Rows that come after `cursor` in newest-first order (`created` desc, then
 * `id` desc, so rows created in the same second still page without gaps).
 */
export function cursorWhere(created: AnySQLiteColumn, id: AnySQLiteColumn, cursor: { created: number; id: string }): SQL {
  return or(lt(created, cursor.created), and(eq(created, cursor.created), lt(id, cursor.id)))!;
}
