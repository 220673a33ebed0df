import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";

/** Writes one JSON object per line; streamed so a long game's per-frame rows never sit in one string. */
export async function writeJsonl(file: string, rows: Iterable<unknown>): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  for (const row of rows) {
    if (!out.write(JSON.stringify(row) + "\n")) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) => {
    out.once("error", reject);
    out.end(() => resolve());
  });
  return file;
}

export const ARTIFACT_NAMES = ["actions", "balls", "hoops", "clusters"] as const;
export type ArtifactName = (typeof ARTIFACT_NAMES)[number];

export function artifactPath(workDir: string, name: ArtifactName): string {
  return path.join(workDir, "artifacts", `${name}.jsonl`);
}
