import { readFile } from "node:fs/promises";
import onnxProto from "onnx-proto";
const { onnx } = onnxProto;

export interface ModelInfo {
  metadata: Record<string, string>;
  inputName: string;
  /** Input dims with symbolic/unknown ones as -1. */
  inputDims: number[];
  bytes: Uint8Array;
}

/**
 * Reads the model file once: onnxruntime-node does not expose custom metadata, and the YOLO
 * contract puts class names there (`names`), so we decode the ModelProto ourselves.
 */
export async function readModelInfo(path: string): Promise<ModelInfo> {
  const bytes = new Uint8Array(await readFile(path));
  const model = onnx.ModelProto.decode(bytes);
  const metadata: Record<string, string> = {};
  for (const p of model.metadataProps ?? []) if (p.key) metadata[p.key] = p.value ?? "";
  const initNames = new Set((model.graph?.initializer ?? []).map((t) => t.name));
  const input = (model.graph?.input ?? []).find((i) => !initNames.has(i.name ?? ""));
  if (!input?.name) throw new Error(`${path}: model has no input`);
  const dims = (input.type?.tensorType?.shape?.dim ?? []).map((d) => (d.dimValue != null && Number(d.dimValue) > 0 ? Number(d.dimValue) : -1));
  return { metadata, inputName: input.name, inputDims: dims, bytes };
}

/**
 * Parses Ultralytics' `names` metadata, a Python dict literal such as
 * "{0: 'person', 1: 'sports ball'}" (JSON is accepted too).
 */
export function parseClassNames(raw: string | undefined): string[] {
  if (!raw) return [];
  try {
    const j = JSON.parse(raw) as Record<string, string> | string[];
    return Array.isArray(j) ? j : Object.entries(j).sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  } catch {
    const out: string[] = [];
    for (const m of raw.matchAll(/(\d+)\s*:\s*(['"])(.*?)\2/g)) out[Number(m[1])] = m[3];
    return out;
  }
}
