// The model thread's side of model-thread.ts: loads the basketball model once, then answers detect
// requests in the order they come.
import { parentPort, workerData } from "node:worker_threads";
import { loadBasketballModel } from "./basketball.ts";
import type { DetectRequest, ThreadMessage } from "./model-thread.ts";

const port = parentPort!;
const send = (m: ThreadMessage) => port.postMessage(m);
try {
  const model = await loadBasketballModel(workerData.modelPath, workerData.options);
  port.on("message", async (m: DetectRequest) => {
    try {
      send({ type: "result", id: m.id, result: await model.detect(m.rgb, m.width, m.height, m.want) });
    } catch (e) {
      send({ type: "result", id: m.id, error: (e as Error).message });
    }
  });
  send({ type: "ready" });
} catch (e) {
  send({ type: "failed", error: (e as Error).message });
}
