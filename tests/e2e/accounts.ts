import { execFileSync } from "node:child_process";

/** Creates an account with the operator's command, against the running test server. */
export function createAccount(email: string, password: string, role: "admin" | "member", username?: string) {
  const args = ["scripts/users.ts", "create", "--email", email, "--role", role, ...(username ? ["--username", username] : [])];
  try {
    execFileSync(process.execPath, args, {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: "", USER_PASSWORD: password },
      stdio: "pipe",
    });
  } catch (error) {
    const output = String((error as { stderr?: Buffer }).stderr ?? "");
    // Each test file makes its own accounts; a rerun in the same server finds them there already.
    if (!output.includes("already exists")) throw error;
  }
}
