/** Sends one command to the server running on a data folder (see server/admin-commands.ts). */
import net from "node:net";

export type Reply = { ok: true; result: unknown } | { ok: false; error: string };

/** The server's reply, or null when no server answers on the data folder's socket. */
export function askRunningServer(socketPath: string, command: Record<string, unknown>): Promise<Reply | null> {
  return new Promise((done, reject) => {
    const socket = net.connect(socketPath);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify(command)}\n`));
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("end", () => {
      try {
        done(JSON.parse(answer) as Reply);
      } catch {
        reject(new Error("The server's answer could not be read."));
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") done(null);
      else reject(error);
    });
  });
}
