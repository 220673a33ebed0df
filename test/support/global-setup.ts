// Node-side setup for the Worker test project: local stand-ins for outside
// services the Worker calls (DNS-over-HTTPS, webhook receivers), handed to the
// Worker as bindings or through `inject`.
import type { TestProject } from "vitest/node";
import { startDohServer } from "./doh-server";
import { startVideoServer } from "./video-server";
import { startWebhookReceiver } from "./webhook-receiver";

export default async function setup(project: TestProject) {
  const doh = await startDohServer();
  project.provide("dohUrl", doh.url);
  const receiver = await startWebhookReceiver();
  project.provide("webhookReceiverUrl", receiver.url);
  const videos = await startVideoServer();
  project.provide("videoServerUrl", videos.url);
  return async () => {
    await doh.close();
    await receiver.close();
    await videos.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    dohUrl: string;
    webhookReceiverUrl: string;
    videoServerUrl: string;
  }
}
