/** Talks to a running server as a browser would: account commands, sign-in, cookies. */
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { testProcessEnv } from "./node-flags.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

export function createAccountWithCommand(dataDir: string, email: string, password: string, role: "owner" | "admin" | "reviewer" | "host" | "member") {
  return execFileSync(process.execPath, ["scripts/users.ts", "create", "--email", email, "--role", role], {
    cwd: root,
    env: testProcessEnv({ DATA_DIR: dataDir, DATABASE_URL: "", USER_PASSWORD: password }),
    encoding: "utf8",
  });
}

/** Runs `npm run user:<action>`'s script against a data folder; resolves with its output and exit code. */
export function runUserCommand(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ["scripts/users.ts", ...args], {
    cwd: root,
    env: testProcessEnv({ DATA_DIR: dataDir, DATABASE_URL: "", ...env }),
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A form's fields: by name, or as pairs where a name repeats (checkboxes, several selects). */
export type FormValues = Record<string, string> | [string, string][];

export function form(values: FormValues) {
  return new URLSearchParams(values);
}

/** Posts a form from the site's own pages (same Origin), without following redirects. */
export function postForm(baseUrl: string, path: string, values: FormValues, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    body: form(values),
    headers: { Origin: baseUrl, ...headers },
    redirect: "manual",
  });
}

/** Signs in and returns the session cookie, or throws with the status. */
export async function signIn(baseUrl: string, email: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await postForm(baseUrl, "/admin/sign-in", { email, password, next: "/admin" }, headers);
  await response.body?.cancel();
  if (response.status !== 302) throw new Error(`sign-in answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * An admin's 'Sync now' on the dashboard, as soon as the server lets it run (15 s after the last
 * sync started, and not while one runs): retries once a second while it answers 429 or 409,
 * for up to 30 s.
 */
export async function syncCalendarNow(baseUrl: string, cookie: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await postForm(baseUrl, "/admin?index", { intent: "sync-events" }, { Cookie: cookie });
    await response.body?.cancel();
    if (response.status === 200) return;
    if (![409, 429].includes(response.status) || Date.now() > deadline) throw new Error(`'Sync now' answered ${response.status}`);
    await new Promise((resume) => setTimeout(resume, 1_000));
  }
}
