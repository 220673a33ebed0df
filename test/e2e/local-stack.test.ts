// startLocalStack on a busy machine: a port chosen here can be taken by another process before
// wrangler binds it (a clean-clone CI run once failed so: "Address already in use"). The stack
// then chooses again; a port the caller named is reported at once.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startLocalStack } from "../../scripts/lib/local-stack";

describe("startLocalStack when its port is taken", () => {
  let taken: Server;
  const held: Socket[] = [];
  let takenPort: number;
  let persistDir: string;
  const secrets = { operatorToken: "op_test_port", mediaSigningSecret: "s".repeat(64) };

  beforeAll(async () => {
    persistDir = mkdtempSync(path.join(tmpdir(), "hoops-port-"));
    // Like any process on the port, it accepts connections (the health probes) and never answers.
    taken = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    takenPort = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => taken.close(resolve));
    rmSync(persistDir, { recursive: true, force: true });
  });

  it("chooses another port when the one it chose was taken before wrangler bound it", async () => {
    const chosen: number[] = [];
    const choosePort = async () => {
      const port = chosen.length === 0 ? takenPort : await freePort();
      chosen.push(port);
      return port;
    };
    const stack = await startLocalStack({ persistDir, ...secrets, choosePort });
    try {
      expect(chosen).toHaveLength(2);
      expect(chosen[0]).toBe(takenPort);
      expect(stack.port).toBe(chosen[1]);
      expect((await fetch(`${stack.baseUrl}/health`)).status).toBe(200);
    } finally {
      await stack.stop();
    }
  });

  it("reports a taken port the caller named, without trying another", async () => {
    await expect(startLocalStack({ persistDir, ...secrets, port: takenPort })).rejects.toThrow(/Address already in use/);
  });
});
