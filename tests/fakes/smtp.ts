/**
 * A mail server on loopback that speaks just enough SMTP for nodemailer (EHLO, MAIL, RCPT, DATA,
 * RSET, NOOP, QUIT, no STARTTLS), and can misbehave as real ones do:
 *
 * - normal: takes every message and keeps it in `mails`
 * - slow: waits `delayMs` before its greeting and before each reply
 * - hang: accepts the connection and never says a word
 * - garbage: greets with something that is not SMTP, then closes the connection
 * - refused: nothing listens on the port any more (connection refused), until another mode is set
 *
 * `connections` counts every connection accepted, whatever the mode.
 */
import net from "node:net";
import { portSwitch } from "./fake-server";

export const FAKE_SMTP_MODES = ["normal", "slow", "hang", "garbage", "refused"] as const;
export type FakeSmtpMode = (typeof FAKE_SMTP_MODES)[number];

export interface FakeMail {
  from: string;
  to: string[];
  /** The message as sent, headers and body (dot-stuffing undone). */
  raw: string;
}

export interface FakeSmtp {
  /** An SMTP_URL for the server, with `query` (nodemailer options such as greetingTimeout) appended. */
  url(query?: Record<string, string | number>): string;
  port: number;
  mails: FakeMail[];
  readonly connections: number;
  /** Resolves once the mode is in effect (for "refused", once the port is closed or open again). */
  setMode(mode: FakeSmtpMode, options?: { delayMs?: number }): Promise<void>;
  close(): Promise<void>;
}

const addressOf = (line: string) => /<([^>]*)>/.exec(line)?.[1] ?? "";

export async function startFakeSmtp(): Promise<FakeSmtp> {
  let mode: FakeSmtpMode = "normal";
  let delayMs = 2_000;
  let connections = 0;
  const mails: FakeMail[] = [];
  const sockets = new Set<net.Socket>();

  function converse(socket: net.Socket) {
    const slow = mode === "slow";
    const reply = (text: string) => {
      const write = () => {
        if (!socket.destroyed) socket.write(`${text}\r\n`);
      };
      if (slow) setTimeout(write, delayMs);
      else write();
    };
    let buffer = "";
    let data: string[] | null = null;
    let envelope: { from: string; to: string[] } = { from: "", to: [] };

    function line(text: string) {
      if (data) {
        if (text !== ".") return void data.push(text.startsWith("..") ? text.slice(1) : text);
        mails.push({ ...envelope, raw: data.join("\r\n") });
        data = null;
        envelope = { from: "", to: [] };
        return reply("250 2.0.0 Ok: queued");
      }
      const verb = text.slice(0, 4).toUpperCase();
      switch (verb) {
        case "EHLO":
          return reply("250-fake-smtp.test\r\n250-8BITMIME\r\n250 SMTPUTF8");
        case "HELO":
          return reply("250 fake-smtp.test");
        case "MAIL":
          envelope.from = addressOf(text);
          return reply("250 2.1.0 Ok");
        case "RCPT":
          envelope.to.push(addressOf(text));
          return reply("250 2.1.5 Ok");
        case "DATA":
          data = [];
          return reply("354 End data with <CR><LF>.<CR><LF>");
        case "RSET":
          envelope = { from: "", to: [] };
          return reply("250 2.0.0 Ok");
        case "NOOP":
          return reply("250 2.0.0 Ok");
        case "QUIT":
          reply("221 2.0.0 Bye");
          return void socket.end();
        default:
          return reply("502 5.5.2 Command not recognized");
      }
    }

    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const text = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        line(text);
      }
    });
    reply("220 fake-smtp.test ESMTP");
  }

  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    if (mode === "hang") return;
    if (mode === "garbage") {
      socket.end("HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\n\r\n<html>Welcome to the hotel Wi-Fi</html>\r\n");
      return;
    }
    converse(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const listening = portSwitch(server, port, () => {
    for (const socket of sockets) socket.destroy();
  });

  return {
    port,
    url(query = {}) {
      const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString();
      return `smtp://127.0.0.1:${port}${search ? `?${search}` : ""}`;
    },
    mails,
    get connections() {
      return connections;
    },
    async setMode(next, options = {}) {
      mode = next;
      delayMs = options.delayMs ?? delayMs;
      await listening.listen(next !== "refused");
    },
    close: () => listening.listen(false),
  };
}
