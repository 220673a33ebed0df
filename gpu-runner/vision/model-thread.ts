// The basketball model on a thread of its own. onnxruntime-node runs inference synchronously on the
// thread that calls it (its `run` only defers the call to setImmediate), so with the model on the main
// thread everything else waits while it works: reading frames from ffmpeg, cutting and lining up the
// rim's region, measuring motion, tracking people. On its own thread the model works while the main
// thread prepares the next frame; callers that start a detection before finishing the previous frame
// (scan.ts, rim-watch.ts) keep two cores busy.
import { Worker } from "node:worker_threads";
import type { BasketballModel, DecodeThresholds } from "./basketball.ts";
import type { CenterNetOptions } from "./centernet.ts";
import type { DetectionClass, Detections } from "./detections.ts";

export type ThreadRequest = DetectRequest | { type: "close" };

export interface DetectRequest {
  type: "detect";
  id: number;
  rgb: Uint8Array;
  width: number;
  height: number;
  classes?: readonly DetectionClass[];
}

export type ThreadMessage =
  | { type: "ready" }
  | { type: "failed"; error: string }
  | { type: "result"; id: number; result?: Detections; error?: string }
  /** A line the thread's model sessions log (the execution provider), for the caller's `log`. */
  | { type: "log"; msg: string };

export interface ModelThread extends BasketballModel {
  /** False once closed or once the thread has died: every detect() then fails at once. */
  readonly usable: boolean;
  close(): Promise<void>;
}

export type ModelThreadOptions = Pick<CenterNetOptions, "threads" | "cpuOnly" | "log"> & { thresholds?: Partial<DecodeThresholds> };

export async function startModelThread(modelPath?: string, options: ModelThreadOptions = {}): Promise<ModelThread> {
  // A function cannot cross to the thread: its lines come back as messages.
  const { log = console.log, ...cloneable } = options;
  const worker = new Worker(new URL("./model-thread-boot.mjs", import.meta.url), {
    workerData: { entry: new URL("./model-thread-worker.ts", import.meta.url).href, modelPath, options: cloneable },
  });
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  const pending = new Map<number, { resolve: (r: Detections) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let dead: Error | null = null;
  // An idle model thread must not keep a finished process alive; one with work must.
  const holdWhileBusy = () => (pending.size ? worker.ref() : worker.unref());
  const failAll = (e: Error) => {
    dead ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    holdWhileBusy();
  };
  const ready = new Promise<void>((resolve, reject) => {
    worker.on("message", (m: ThreadMessage) => {
      if (m.type === "ready") resolve();
      else if (m.type === "failed") reject(new Error(m.error));
      else if (m.type === "log") log(m.msg);
      else {
        const p = pending.get(m.id);
        pending.delete(m.id);
        holdWhileBusy();
        if (m.error !== undefined) p?.reject(new Error(m.error));
        else p?.resolve(m.result!);
      }
    });
    worker.on("error", (e) => {
      reject(e);
      failAll(e);
    });
    worker.on("exit", (code) => {
      const e = new Error(`model thread exited (code ${code})`);
      reject(e);
      failAll(e);
    });
  });
  // The thread ends by itself after a failed start or a "close" (model-thread-worker.ts); it is only
  // terminated if it does not within a minute (a stuck run), which may take the process with it.
  const ended = async () => {
    const timer = setTimeout(() => void worker.terminate(), 60_000);
    timer.unref();
    await exited;
    clearTimeout(timer);
  };
  try {
    await ready;
  } catch (e) {
    await ended();
    throw e;
  }
  holdWhileBusy();
  return {
    get usable() {
      return !dead;
    },
    detect(rgb, width, height, classes) {
      if (dead) return Promise.reject(dead);
      // A copy goes over (its memory moves to the thread): callers reuse their buffers at once.
      const copy = new Uint8Array(rgb);
      const id = nextId++;
      const result = new Promise<Detections>((resolve, reject) => pending.set(id, { resolve, reject }));
      holdWhileBusy();
      worker.postMessage({ type: "detect", id, rgb: copy, width, height, classes } satisfies DetectRequest, [copy.buffer]);
      return result;
    },
    async close() {
      if (!dead) {
        failAll(new Error("model thread closed"));
        // Held until it has ended, so a caller awaiting close() sees it through.
        worker.ref();
        worker.postMessage({ type: "close" } satisfies ThreadRequest);
      }
      await ended();
    },
  };
}
