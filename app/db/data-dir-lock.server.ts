/**
 * PGlite has no lock of its own, and two processes writing one data folder corrupt it. The
 * server therefore holds a Unix socket inside the folder for as long as it runs: a second process
 * finds the socket answering and refuses to start. A socket left behind by a crash no longer
 * answers, so it is taken over. See docs/decisions/001-pglite-by-default.md.
 */
import { mkdir, unlink } from "node:fs/promises";
import net from "node:net";
import { join, resolve } from "node:path";

export const LOCK_SOCKET_NAME = ".dwell.sock";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

export interface DataDirLock {
  socketPath: string;
  server: net.Server;
  release(): Promise<void>;
}

function listen(server: net.Server, path: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const onError = (error: Error) => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolvePromise();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(path);
  });
}

/** Whether a live process answers on the socket. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = net.connect(path);
    socket.once("connect", () => {
      socket.destroy();
      resolvePromise(true);
    });
    socket.once("error", () => resolvePromise(false));
  });
}

const delay = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function lockDataDir(
  dataDir: string,
  onConnection: (socket: net.Socket) => void = (socket) => socket.end(),
): Promise<DataDirLock> {
  const socketPath = join(resolve(dataDir), LOCK_SOCKET_NAME);
  // Unix socket paths are limited to about 107 bytes.
  if (Buffer.byteLength(socketPath) > 100) {
    throw new DataDirLockedError(
      `DATA_DIR resolves to a path too long to hold its lock socket (${socketPath}); use a shorter DATA_DIR.`,
    );
  }
  const inUse = () =>
    new DataDirLockedError(
      `The data folder ${resolve(dataDir)} is in use by another running Dwell process. ` +
        "Stop that process first, or set DATA_DIR to another folder. (Two processes on one " +
        "embedded database would corrupt it; to run several processes, use PostgreSQL via DATABASE_URL.)",
    );

  await mkdir(resolve(dataDir), { recursive: true });
  const server = net.createServer(onConnection);
  try {
    await listen(server, socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    if (await answers(socketPath)) throw inUse();
    // A starting process binds before it listens: look again before calling the socket stale.
    await delay(200);
    if (await answers(socketPath)) throw inUse();
    await unlink(socketPath).catch((unlinkError: NodeJS.ErrnoException) => {
      if (unlinkError.code !== "ENOENT") throw unlinkError;
    });
    try {
      await listen(server, socketPath);
    } catch (retryError) {
      if ((retryError as NodeJS.ErrnoException).code === "EADDRINUSE") throw inUse();
      throw retryError;
    }
  }
  server.unref();
  return {
    socketPath,
    server,
    release: () => new Promise<void>((done) => server.close(() => done())),
  };
}
