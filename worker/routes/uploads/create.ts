import { createRoute, type OpenAPIHono, type z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { openApiErrorResponses } from "../../schemas/common";
import { CreateUploadBodySchema, UploadSchema } from "../../schemas/uploads";
import { publicBaseUrl } from "../../services/media-urls";
import { createUpload } from "../../services/uploads";

export const createUploadRoute = createRoute({
  operationId: "createUpload",
  method: "post",
  path: "/v1/uploads",
  tags: ["Uploads"],
  summary: "Reserve an upload",
  description:
    "Reserves an upload for one MP4 or MOV file of an exact size. Send the bytes to `upload_url` within 7 days, then submit a session with `source: {type: 'upload', upload_id}`.",
  security: [{ bearerAuth: [] }],
  request: { body: { required: true, content: { "application/json": { schema: CreateUploadBodySchema } } } },
  responses: {
    200: { description: "The reserved upload", content: { "application/json": { schema: UploadSchema } } },
    ...openApiErrorResponses,
  },
});

export type CreateUploadResponse = z.infer<typeof UploadSchema>;

export function registerCreateUpload(app: OpenAPIHono<AppEnv>) {
  app.openapi(createUploadRoute, async (c) => {
    const services = c.get("services");
    const upload = await createUpload(services, c.get("auth").orgId, c.req.valid("json"), publicBaseUrl(services.env, c.req.url));
    return c.json(UploadSchema.parse(upload), 200);
  });
}
