// Scalar's standalone API reference bundle, shipped inside the Worker as text (wrangler.toml and
// vitest.config.ts import this one file as a Text module) so /docs loads nothing from a CDN.
// The package's `exports` map does not expose the file, hence the path into node_modules.
// @ts-expect-error -- a Text module: its default export is the file's contents
import bundle from "../../../node_modules/@scalar/api-reference/dist/browser/standalone.js";

export const SCALAR_BUNDLE: string = bundle;
