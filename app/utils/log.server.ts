/**
 * One JSON object per line on stdout (stderr for errors): what log collectors read, and grep-able
 * by hand. Fields that could carry secrets are never passed in; callers log ids, not payloads.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { scrubbed } from "./failure-text.server";

type Level = "debug" | "info" | "warn" | "error";
type Fields = Record<string, unknown>;

const LEVEL_ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let threshold: Level = "info";

export function setLogLevel(level: Level) {
  threshold = level;
}

export function logLevel(): Level {
  return threshold;
}

/** The request being served: every line logged while serving it carries its id. */
const requestScope = new AsyncLocalStorage<{ requestId: string }>();

export function withRequestId<T>(requestId: string, serve: () => T): T {
  return requestScope.run({ requestId }, serve);
}

function describeError(error: unknown): unknown {
  if (error instanceof Error) {
    const cause: unknown = error.cause;
    return {
      name: error.name,
      message: scrubbed(error.message),
      ...(cause instanceof Error ? { cause: describeError(cause) } : {}),
      // The stack's first line repeats the message: only at debug, which an operator sets to see all.
      ...(threshold === "debug" ? { stack: error.stack && scrubbed(error.stack) } : {}),
    };
  }
  return typeof error === "string" ? scrubbed(error) : error;
}

function write(level: Level, message: string, fields?: Fields) {
  if (LEVEL_ORDER[level] < LEVEL_ORDER[threshold]) return;
  const entry: Fields = { time: new Date().toISOString(), level, msg: scrubbed(message) };
  for (const [key, value] of Object.entries(fields ?? {})) {
    // Every text is scrubbed, not only errors: callers pass `error.message` as a string too.
    entry[key] = key === "error" || value instanceof Error || typeof value === "string" ? describeError(value) : value;
  }
  const scope = requestScope.getStore();
  if (scope) entry.requestId = scope.requestId;
  const line = `${JSON.stringify(entry)}\n`;
  if (level === "error" || level === "warn") process.stderr.write(line);
  else process.stdout.write(line);
}

export const log = {
  debug: (message: string, fields?: Fields) => write("debug", message, fields),
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
