// Extra heads on CenterNet's shared feature map: small stacks of 1×1 convolutions, trained elsewhere
// (e.g. a rim detector) and committed as JSON under models/heads/. The converter appends each one to
// the graph as an extra output, so a runner gets them from the same inference at almost no cost.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** Output names the converter already uses; a head may not take one. */
export const RESERVED_OUTPUT_NAMES = ["images", "heatmap", "wh", "feature"] as const;

const finite = z.number().refine(Number.isFinite, "must be a finite number");

const HeadLayerSchema = z.object({
  /** Row-major [out][in]: one row of input weights per output channel. */
  weights: z.array(z.array(finite).min(1)).min(1),
  bias: z.array(finite).min(1),
  activation: z.enum(["relu", "sigmoid", "none"]),
});

export const HeadDefinitionSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,39}$/, "lower-case letters, digits and _, starting with a letter")
      .refine((n) => !(RESERVED_OUTPUT_NAMES as readonly string[]).includes(n), "is one of the model's own outputs"),
    description: z.string().optional(),
    /** Where the training data came from and under which licence; copied into the model metadata. */
    attribution: z.string().optional(),
    /**
     * Per-channel normalisation of the feature map the head was trained on: x' = (x − mean) / std.
     * Folded into the first layer's weights, so it costs nothing at inference.
     */
    input_normalization: z.object({ mean: z.array(finite).min(1), std: z.array(finite.refine((v) => v > 0, "must be > 0")).min(1) }).optional(),
    layers: z.array(HeadLayerSchema).min(1),
  })
  .superRefine((head, ctx) => {
    let inputs = head.input_normalization?.mean.length;
    if (head.input_normalization && head.input_normalization.std.length !== head.input_normalization.mean.length)
      ctx.addIssue({ code: "custom", path: ["input_normalization", "std"], message: "must have as many entries as mean" });
    head.layers.forEach((layer, i) => {
      const rowLength = layer.weights[0].length;
      if (layer.weights.some((row) => row.length !== rowLength))
        ctx.addIssue({ code: "custom", path: ["layers", i, "weights"], message: "rows differ in length" });
      if (layer.bias.length !== layer.weights.length)
        ctx.addIssue({ code: "custom", path: ["layers", i, "bias"], message: `has ${layer.bias.length} entries for ${layer.weights.length} output channels` });
      if (inputs !== undefined && rowLength !== inputs)
        ctx.addIssue({ code: "custom", path: ["layers", i, "weights"], message: `takes ${rowLength} inputs but receives ${inputs}` });
      inputs = layer.weights.length;
    });
  });

export type HeadDefinition = z.infer<typeof HeadDefinitionSchema>;

/** A head as the converter writes it: flat float32 weights [out·in] with the normalisation folded in. */
export interface FoldedHeadLayer {
  inChannels: number;
  outChannels: number;
  weights: Float32Array;
  bias: Float32Array;
  activation: "relu" | "sigmoid" | "none";
}

/** Checks a head against the feature map it will sit on and folds its input normalisation into layer 1. */
export function foldHead(head: HeadDefinition, featureChannels: number): FoldedHeadLayer[] {
  const first = head.layers[0];
  if (first.weights[0].length !== featureChannels)
    throw new Error(`head "${head.name}": its first layer takes ${first.weights[0].length} channels, the feature map has ${featureChannels}`);
  const norm = head.input_normalization;
  if (norm && norm.mean.length !== featureChannels)
    throw new Error(`head "${head.name}": input_normalization has ${norm.mean.length} channels, the feature map has ${featureChannels}`);
  return head.layers.map((layer, li) => {
    const out = layer.weights.length, inp = layer.weights[0].length;
    const weights = new Float32Array(out * inp), bias = new Float32Array(out);
    for (let o = 0; o < out; o++) {
      // W·((x − m)/s) + b = (W/s)·x + (b − W·(m/s)); summed in float64, rounded once.
      let b = layer.bias[o];
      for (let i = 0; i < inp; i++) {
        const w = layer.weights[o][i];
        if (li === 0 && norm) {
          weights[o * inp + i] = w / norm.std[i];
          b -= (w * norm.mean[i]) / norm.std[i];
        } else weights[o * inp + i] = w;
      }
      bias[o] = b;
    }
    return { inChannels: inp, outChannels: out, weights, bias, activation: layer.activation };
  });
}

/** Reads every `*.json` in `dir` (sorted by file name, so builds are reproducible); none when the folder is absent. */
export function loadHeadDefinitions(dir: string): HeadDefinition[] {
  if (!existsSync(dir)) return [];
  const heads = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const full = path.join(dir, file);
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(full, "utf8"));
      } catch (e) {
        throw new Error(`${full}: not valid JSON (${(e as Error).message})`);
      }
      const parsed = HeadDefinitionSchema.safeParse(raw);
      if (!parsed.success)
        throw new Error(`${full}: not a head definition: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`);
      return parsed.data;
    });
  const seen = new Set<string>();
  for (const h of heads) {
    if (seen.has(h.name)) throw new Error(`${dir}: two heads are named "${h.name}"`);
    seen.add(h.name);
  }
  return heads;
}
