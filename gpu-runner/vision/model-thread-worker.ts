// The model thread's side of model-thread.ts: loads the basketball model once, then answers detect
// requests one at a time in the order they come. On "close" it finishes the request in hand,
// releases the session and lets the thread end by itself: a thread terminated from outside while
// onnxruntime is inside a run takes the whole process down with it.
import { parentPort, workerData } from "node:worker_threads";
import { loadBasketballModel } from "./basketball.ts";
import type { ThreadMessage, ThreadRequest } from "./model-thread.ts";

const port = parentPort!;
const send = (m: ThreadMessage) => port.postMessage(m);
try {
  const model = await loadBasketballModel(workerData.modelPath, { ...workerData.options, log: (msg: string) => send({ type: "log", msg }) });
  let inHand: Promise<void> = Promise.resolve();
  port.on("message", (m: ThreadRequest) => {
    inHand = inHand.then(async () => {
      if (m.type === "close") {
        await model.net.release();
        port.close();
        return;
      }
      try {
        send({ type: "result", id: m.id, result: await model.detect(m.rgb, m.width, m.height, m.classes) });
      } catch (e) {
        send({ type: "result", id: m.id, error: (e as Error).message });
      }
    });
  });
  send({ type: "ready" });
} catch (e) {
  send({ type: "failed", error: (e as Error).message });
  port.close();
}
