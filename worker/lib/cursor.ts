import { and, eq, lt, or, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { ApiError } from "../errors";

/**
 * Rows that come after `cursor` in newest-first order (`created` desc, then
 * `id` desc, so rows created in the same second still page without gaps).
 */
export function cursorWhere(created: AnySQLiteColumn, id: AnySQLiteColumn, cursor: { created: number; id: string }): SQL {
  return or(lt(created, cursor.created), and(eq(created, cursor.created), lt(id, cursor.id)))!;
}

/**
 * The one answer of every cursor-paged list to a `starting_after` that names no item of the list
 * (unknown, deleted, or another organization's): `400 parameter_invalid`, `param: "starting_after"`.
 * The list exists, so not a 404; the parameter's value is what is wrong (README, "Errors").
 */
export function unknownCursor(resource: string, id: string): ApiError {
  return new ApiError("parameter_invalid", `No such ${resource}: '${id}'. \`starting_after\` takes the id of the last item of the previous page.`, {
    param: "starting_after",
  });
}
