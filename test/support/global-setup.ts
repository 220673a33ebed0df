// Node-side setup for the Worker test project: local stand-ins for outside
// services the Worker calls (DNS-over-HTTPS), handed to the Worker as bindings.
import type { TestProject } from "vitest/node";
import { startDohServer } from "./doh-server";

export default async function setup(project: TestProject) {
  const doh = await startDohServer();
  project.provide("dohUrl", doh.url);
  return async () => {
    await doh.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    dohUrl: string;
  }
}
