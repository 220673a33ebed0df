// Entry of the model thread (model-thread.ts): worker threads do not inherit the TypeScript loader
// that runs the runner, so register it here before importing the worker's own module.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
