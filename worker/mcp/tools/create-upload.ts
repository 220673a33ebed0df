// create_upload: reserves an upload and hands back the shell command that sends the file.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { UploadResource } from "../../services/uploads";
import { result, toolError, type ToolContext } from "../tool-kit";
import { baseName, contentTypeForPath, uploadCommand } from "../upload-command";

export function registerCreateUpload(server: McpServer, { call }: ToolContext): void {
  server.registerTool(
    "create_upload",
    {
      title: "Create an upload",
      description:
        "Reserves an upload for a local MP4 or MOV file and returns `upload_id` and a shell command that sends the file from the user's machine (curl; the video never passes through this server). Run the command where the file is, then call analyze_video with the `upload_id`. Free. The upload URL accepts the file for 7 days.",
      inputSchema: {
        path: z.string().min(1).max(4096).describe("Path of the video file on the user's machine, as the command will use it"),
        size: z.number().int().min(1).describe("The file's exact size in bytes (e.g. from `stat` or `ls -l`)"),
        content_type: z.enum(["video/mp4", "video/quicktime"]).optional().describe("Defaults from the file extension: .mp4/.m4v → video/mp4, .mov → video/quicktime"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ path, size, content_type }) => {
      const contentType = content_type ?? contentTypeForPath(path);
      if (!contentType) return toolError(`Only MP4 and MOV videos can be analysed, and "${baseName(path)}" has neither extension. Pass content_type if the file is MP4 or MOV under another name.`);
      const r = await call({ method: "POST", path: "/v1/uploads", body: { size, content_type: contentType, filename: baseName(path) } });
      if (!r.ok) return r.error;
      const upload = r.body as UploadResource;
      return result({
        upload_id: upload.id,
        upload_url: upload.upload_url,
        content_type: upload.content_type,
        size: upload.size,
        upload_method: upload.upload_method,
        expires_in_seconds: upload.expires_in_seconds,
        // The API's answer decides PUT or tus (one rule, lib/tus.ts `uploadMethodFor`).
        command: uploadCommand({ path, uploadUrl: upload.upload_url, contentType: upload.content_type, size: upload.size, method: upload.upload_method, chunkSize: upload.chunk_size }),
        next_step: `Run \`command\` in a shell on the machine that has the file, then call analyze_video with upload_id "${upload.id}".`,
      });
    },
  );
}
