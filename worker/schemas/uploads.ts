import { z } from "@hono/zod-openapi";
import { MAX_CHUNK_BYTES, MAX_SINGLE_PUT_BYTES, MAX_UPLOAD_BYTES, RECOMMENDED_CHUNK_BYTES, UPLOAD_METHODS } from "../lib/tus";

/** The spec's upload destination lifetime: 7 days. */
export const UPLOAD_LIFETIME_SECONDS = 604_800;

export const UPLOAD_CONTENT_TYPES = ["video/mp4", "video/quicktime"] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

export const CreateUploadBodySchema = z
  .object({
    content_type: z.enum(UPLOAD_CONTENT_TYPES).openapi({
      description: "Media type of the file: `video/mp4` (MP4) or `video/quicktime` (MOV). Required.",
      example: "video/mp4",
    }),
    size: z
      .number()
      .int()
      .min(1)
      .max(MAX_UPLOAD_BYTES)
      .openapi({
        description: "Exact file size in bytes, 1 to 10,000,000,000 (10 GB, decimal). Required: the upload completes when exactly this many bytes have arrived.",
        example: 734003200,
      }),
    filename: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters")
      .optional()
      .openapi({ description: "Original file name, for your reference (optional, at most 255 characters).", example: "game.mp4" }),
  })
  .openapi("CreateUploadRequest");

export const UploadSchema = z
  .object({
    id: z.string().openapi({ example: "up_4f9XoT2qLw8bZ1mN3pQ7rS5u" }),
    object: z.literal("upload"),
    upload_url: z.string().openapi({
      description:
        "Where to send the bytes, the way `upload_method` says: one `PUT` of the whole file with `Content-Type` equal to `content_type`, or the tus 1.0.0 resumable protocol (HEAD/PATCH). The URL carries its own signature; send no API key to it.",
      example: "https://api.example.com/uploads/v1/up_4f9XoT2qLw8bZ1mN3pQ7rS5u?sig=…",
    }),
    content_type: z.string().openapi({ example: "video/mp4" }),
    size: z.number().int().openapi({ description: "Bytes", example: 734003200 }),
    upload_method: z.enum(UPLOAD_METHODS).openapi({
      description: `How to send this file, decided from \`size\` (always known: it is required when reserving). \`put\`: up to ${MAX_SINGLE_PUT_BYTES.toLocaleString("en-US")} bytes (100 MB, the platform's request body limit), one \`PUT\` of the whole file. \`tus\`: above it, the tus 1.0.0 resumable protocol in \`PATCH\` requests of \`chunk_size\` bytes; a single \`PUT\` is refused with \`413 payload_too_large\`. tus also works for a file of any size, and resumes after a dropped connection.`,
      example: "tus",
    }),
    chunk_size: z.number().int().openapi({
      description: `Bytes per tus \`PATCH\` to send (${RECOMMENDED_CHUNK_BYTES.toLocaleString("en-US")}, 50 MiB); the last one carries the rest. A \`PATCH\` may carry at most ${MAX_CHUNK_BYTES.toLocaleString("en-US")} bytes (90 MiB).`,
      example: RECOMMENDED_CHUNK_BYTES,
    }),
    expires_in_seconds: z.number().int().openapi({ description: "How long the upload URL accepts bytes", example: UPLOAD_LIFETIME_SECONDS }),
  })
  .openapi("Upload");
