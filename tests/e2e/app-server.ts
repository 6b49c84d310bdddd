import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** The app and its sandbox on free ports, and how to stop them (and remove their storage). */
export interface RunningApp {
  baseUrl: string;
  /** The provider sandbox `npm start` runs beside the app (its mail catcher at `/mail`). */
  sandboxUrl: string;
  stop: () => void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The app exited early:\n${log()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      // Check the body, not only the status: another program may answer on the port.
      if (res.ok && ((await res.json()) as { status?: string }).status === "ok") return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The app did not become healthy in time:\n${log()}`);
}

/** Starts the app exactly as `npm start` serves it (already-built client), on fresh storage. */
export async function startApp(): Promise<RunningApp> {
  const [port, inspectorPort, sandboxPort] = [await freePort(), await freePort(), await freePort()];
  const persistDir = mkdtempSync(path.join(tmpdir(), "sunfleet-e2e-"));
  let output = "";
  const server = spawn(
    process.execPath,
    [
      "scripts/start.mjs",
      "--no-build",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      persistDir,
      "--sandbox-port",
      String(sandboxPort),
    ],
    { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  server.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  server.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const stop = () => {
    if (server.pid && server.exitCode === null) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
    rmSync(persistDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, server, () => output);
  } catch (error) {
    stop();
    throw error;
  }
  return { baseUrl, sandboxUrl: `http://127.0.0.1:${sandboxPort}`, stop };
}
