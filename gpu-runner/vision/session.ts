import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ort from "onnxruntime-node";

export type ExecutionProvider = "cuda" | "cpu";

/** How every model session of a process runs: the runner's settings (vision/models.ts, ModelSettings), handed in. */
export interface SessionSettings {
  /** onnxruntime intra-op threads (default 1). */
  threads?: number;
  /** Never CUDA, even where it is usable (HOOPS_EXECUTION_PROVIDER=cpu). */
  cpuOnly?: boolean;
  /** Where the execution-provider lines go (the runner's JSON log; default: console.log). */
  log?: (msg: string) => void;
}

/** Whether this host's onnxruntime-node can run CUDA: probed once (a fact of the installed package, not a setting); false after a CUDA session failed to open. */
let cudaUsable: boolean | undefined;

/**
 * CUDA when usable, else CPU. CUDA must be in the binding's backend list and a session must
 * actually open with it (the npm package ships CUDA support only when its optional download ran).
 * Logged once, because a silent CPU fallback on a GPU host would look like a slow runner rather
 * than a misconfigured one.
 */
export function executionProvider(log: (msg: string) => void = console.log, cpuOnly = false): ExecutionProvider {
  if (cudaUsable === undefined) {
    try {
      // The backend list names CUDA even when the provider library was never downloaded
      // (onnxruntime-node-install=skip), so also look for the library itself.
      cudaUsable = ort.listSupportedBackends().some((b) => b.name === "cuda") && cudaProviderInstalled();
    } catch {
      cudaUsable = false;
    }
    log(`[vision] execution provider: ${cudaUsable && !cpuOnly ? "cuda" : "cpu"}${cudaUsable ? "" : " (CUDA not available in this onnxruntime-node build)"}`);
  }
  return cudaUsable && !cpuOnly ? "cuda" : "cpu";
}

export type GraphOptimizationLevel = "disabled" | "basic" | "extended" | "all";

/** Reads a model's `graph_optimization_level` metadata hint; anything else means the default ("all"). */
export function optimizationLevelHint(raw: string | undefined): GraphOptimizationLevel | undefined {
  return raw === "disabled" || raw === "basic" || raw === "extended" || raw === "all" ? raw : undefined;
}

export async function createSession(
  modelPath: string | Uint8Array,
  opts: SessionSettings & { log?: (m: string) => void; optimizationLevel?: GraphOptimizationLevel } = {},
): Promise<ort.InferenceSession> {
  const ep = executionProvider(opts.log, opts.cpuOnly);
  const base: ort.InferenceSession.SessionOptions = {
    graphOptimizationLevel: opts.optimizationLevel ?? "all",
    // One intra-op thread by default: ffmpeg decodes on the other core(s) at the same time, and on
    // the 2-core runner 2 ORT threads fighting the decoder measured slower (bench/runner.ts).
    intraOpNumThreads: opts.threads ?? 1,
    interOpNumThreads: 1,
  };
  if (ep === "cuda") {
    try {
      return await create(modelPath, { ...base, executionProviders: ["cuda", "cpu"] });
    } catch (e) {
      (opts.log ?? console.log)(`[vision] CUDA session failed (${(e as Error).message}); falling back to CPU`);
      cudaUsable = false;
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
  return false;
}
