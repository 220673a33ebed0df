import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ort from "onnxruntime-node";

export type ExecutionProvider = "cuda" | "cpu";
let chosen: ExecutionProvider | undefined;

/**
 * Decides once per process whether the CUDA execution provider is usable: it must be in the
 * binding's backend list and a session must actually open with it (the npm package ships CUDA
 * support only when its optional download ran). Logged, because a silent CPU fallback on a GPU
 * host would look like a slow runner rather than a misconfigured one.
 */
export function executionProvider(log: (msg: string) => void = console.log): ExecutionProvider {
  if (chosen) return chosen;
  const forced = process.env.HOOPS_EXECUTION_PROVIDER;
  let listed = false;
  try {
    // The backend list names CUDA even when the provider library was never downloaded
    // (onnxruntime-node-install=skip), so also look for the library itself.
    listed = ort.listSupportedBackends().some((b) => b.name === "cuda") && cudaProviderInstalled();
  } catch {
    listed = false;
  }
  chosen = forced === "cpu" ? "cpu" : listed ? "cuda" : "cpu";
  log(`[vision] execution provider: ${chosen}${listed ? "" : " (CUDA not available in this onnxruntime-node build)"}`);
  return chosen;
}

export type GraphOptimizationLevel = "disabled" | "basic" | "extended" | "all";

/** Reads a model's `graph_optimization_level` metadata hint; anything else means the default ("all"). */
export function optimizationLevelHint(raw: string | undefined): GraphOptimizationLevel | undefined {
  return raw === "disabled" || raw === "basic" || raw === "extended" || raw === "all" ? raw : undefined;
}

export async function createSession(
  modelPath: string | Uint8Array,
  opts: { threads?: number; log?: (m: string) => void; optimizationLevel?: GraphOptimizationLevel } = {},
): Promise<ort.InferenceSession> {
  const ep = executionProvider(opts.log);
  const base: ort.InferenceSession.SessionOptions = {
    graphOptimizationLevel: opts.optimizationLevel ?? "all",
    // One intra-op thread by default: ffmpeg decodes on the other core(s) at the same time, and on
    // the 2-core runner 2 ORT threads fighting the decoder measured slower (bench/runner.ts).
    intraOpNumThreads: opts.threads ?? Number(process.env.HOOPS_ORT_THREADS ?? 1),
    interOpNumThreads: 1,
  };
  if (ep === "cuda") {
    try {
      return await create(modelPath, { ...base, executionProviders: ["cuda", "cpu"] });
    } catch (e) {
      (opts.log ?? console.log)(`[vision] CUDA session failed (${(e as Error).message}); falling back to CPU`);
      chosen = "cpu";
    }
  }
  return create(modelPath, { ...base, executionProviders: ["cpu"] });
}

function create(model: string | Uint8Array, o: ort.InferenceSession.SessionOptions) {
  return typeof model === "string" ? ort.InferenceSession.create(model, o) : ort.InferenceSession.create(model, o);
}

function cudaProviderInstalled(): boolean {
  try {
    const root = path.dirname(createRequire(import.meta.url).resolve("onnxruntime-node/package.json"));
    const binDir = path.join(root, "bin");
    const stack = [binDir];
    while (stack.length) {
      const dir = stack.pop()!;
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) stack.push(path.join(dir, e.name));
        else if (e.name.startsWith("libonnxruntime_providers_cuda")) return true;
      }
    }
  } catch {
    return false;
  }
  return existsSync("/nonexistent");
}
