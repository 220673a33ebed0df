// OpenAPI components of share links to the session hub page (services/share-links.ts).
import { z } from "@hono/zod-openapi";

/** Default lifetime of a share link: 7 days, like the media URLs in API answers. */
export const SHARE_LINK_DEFAULT_SECONDS = 7 * 24 * 3600;
export const SHARE_LINK_MIN_SECONDS = 300;
/** Links get forwarded; a month is the longest one lives. Mint a new one after that. */
export const SHARE_LINK_MAX_SECONDS = 30 * 24 * 3600;

export const CreateShareLinkBodySchema = z
  .object({
    expires_in_seconds: z
      .number()
      .int()
      .min(SHARE_LINK_MIN_SECONDS)
      .max(SHARE_LINK_MAX_SECONDS)
      .default(SHARE_LINK_DEFAULT_SECONDS)
      .openapi({
        description: `How long the link works, in seconds: ${SHARE_LINK_MIN_SECONDS} to ${SHARE_LINK_MAX_SECONDS} (30 days), rounded up to the next full hour; 7 days when left out.`,
        example: 86400,
      }),
  })
  .strict()
  .openapi("CreateShareLinkRequest");

export const ShareLinkSchema = z
  .object({
    object: z.literal("share_link"),
    session: z.string().openapi({ description: "The session the link opens", example: "sess_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    url: z.string().openapi({
      description: "The session's hub page: status while it runs, then the game video, highlights, shot chart and box scores. Needs no API key; anyone with the link can open it until `expires`.",
    }),
    expires: z.number().int().openapi({ description: "Unix seconds; the link is refused from then on" }),
  })
  .openapi("ShareLink");
