// The list envelope used by every list, top-level or embedded, and the two
// paging styles: cursors (`starting_after`) for top-level collections, offsets
// for the per-session sub-lists.
import { z } from "@hono/zod-openapi";

export interface ListEnvelope<T> {
  object: "list";
  data: T[];
  has_more: boolean;
  total_count: number;
  url?: string;
}

export function listEnvelope<T>(data: T[], page: { hasMore: boolean; totalCount: number; url?: string }): ListEnvelope<T> {
  return {
    object: "list",
    data,
    has_more: page.hasMore,
    total_count: page.totalCount,
    ...(page.url !== undefined ? { url: page.url } : {}),
  };
}

/** Rows fetched with `limit + 1`: the extra row only tells whether there is more. */
export function takePage<T>(rows: T[], limit: number): { data: T[]; hasMore: boolean } {
  return { data: rows.slice(0, limit), hasMore: rows.length > limit };
}

export function listSchema<T extends z.ZodTypeAny>(item: T, name: string, embedded = false) {
  const base = { object: z.literal("list"), data: z.array(item), has_more: z.boolean(), total_count: z.number().int() };
  // Two whole object schemas rather than one with a conditional `url` field:
  // the conditional field inferred as a required `url: string | undefined`,
  // which no top-level envelope (that omits `url`) satisfied.
  return (
    embedded
      ? z.object({ ...base, url: z.string().openapi({ example: "/v1/sessions/sess_…/shots" }) })
      : z.object({ ...base, url: z.string().optional() })
  ).openapi(name);
}

/** The `limit` query parameter of a list: 1 to `maxLimit` items a page. */
function limitQuery(maxLimit: number, defaultLimit: number) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(maxLimit)
    .default(defaultLimit)
    .openapi({ param: { name: "limit", in: "query" }, description: `1 to ${maxLimit}, default ${defaultLimit}` });
}

export function cursorPagingQuery(maxLimit: number, defaultLimit: number) {
  return {
    limit: limitQuery(maxLimit, defaultLimit),
    starting_after: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ param: { name: "starting_after", in: "query" }, description: "The `id` of the last item of the previous page" }),
  };
}

export const SUB_LIST_DEFAULT_LIMIT = 100;

export function offsetPagingQuery(maxLimit = 250, defaultLimit = SUB_LIST_DEFAULT_LIMIT) {
  return {
    limit: limitQuery(maxLimit, defaultLimit),
    offset: z.coerce
      .number()
      .int()
      .min(0)
      .default(0)
      .openapi({ param: { name: "offset", in: "query" }, description: "At least 0, default 0" }),
  };
}
