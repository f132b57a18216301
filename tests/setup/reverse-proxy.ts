/**
 * The site as it is deployed: Dwell behind a real TLS-terminating reverse proxy (Debian's nginx or
 * Caddy), with a local certificate. The proxy's configuration is the README's own example, read
 * from the README and changed only where a test machine must differ (host name, ports, certificate),
 * so the example people copy is the one the tests run.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAccountWithCommand } from "./sanctum-client";
import { startServerProcess, type ServerProcess } from "./server-process";

export type ProxyKind = "nginx" | "caddy";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** The README's examples serve this host, forwarding to a server on this address. */
const README_HOST = "dwell.example";
const README_UPSTREAM = "127.0.0.1:3000";
/** What the browser is told to resolve to loopback (Chromium's --host-resolver-rules). */
export const TEST_HOST = "dwell.test";

const BINARIES: Record<ProxyKind, { paths: string[]; install: string }> = {
  nginx: { paths: ["/usr/sbin/nginx", "/usr/bin/nginx"], install: "apt-get install nginx-light" },
  caddy: { paths: ["/usr/bin/caddy", "/usr/local/bin/caddy"], install: "apt-get install caddy" },
};

function binary(kind: ProxyKind): string {
  const found = BINARIES[kind].paths.find((path) => existsSync(path));
  if (!found) throw new Error(`${kind} was not found (${BINARIES[kind].paths.join(", ")}): ${BINARIES[kind].install}`);
  return found;
}

/** The README's fenced example for a proxy (```nginx or ```caddyfile). */
export function readmeExample(kind: ProxyKind): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const fence = kind === "nginx" ? "nginx" : "caddyfile";
  const match = new RegExp("```" + fence + "\\n([\\s\\S]*?)```").exec(readme);
  if (!match) throw new Error(`README.md has no \`\`\`${fence} example`);
  return match[1]!;
}

/** Replaces text that must occur exactly once: a README edit that breaks the example fails here. */
function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`the README's proxy example should contain "${from}" exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

interface ProxyPlan {
  port: number;
  upstream: string;
  certFile: string;
  keyFile: string;
  dir: string;
}

function nginxConfig(plan: ProxyPlan): string {
  let site = readmeExample("nginx");
  site = replaceOnce(site, "listen 443 ssl;", `listen 127.0.0.1:${plan.port} ssl;`);
  site = replaceOnce(site, `server_name ${README_HOST};`, `server_name ${TEST_HOST};`);
  site = site.replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${plan.certFile};`);
  site = site.replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${plan.keyFile};`);
  site = replaceOnce(site, `http://${README_UPSTREAM};`, `http://${plan.upstream};`);
  // Around the README's server block, what a packaged nginx.conf provides, in the test's folder.
  const temp = (name: string) => `${name}_temp_path ${join(plan.dir, name)};`;
  return [
    "daemon off;",
    ...(process.getuid?.() === 0 ? ["user root;"] : []),
    "worker_processes 1;",
    `pid ${join(plan.dir, "nginx.pid")};`,
    `error_log ${join(plan.dir, "error.log")} warn;`,
    "events {}",
    "http {",
    "access_log off;",
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp),
    site,
    "}",
  ].join("\n");
}

function caddyConfig(plan: ProxyPlan): string {
  let site = readmeExample("caddy");
  site = replaceOnce(site, `${README_HOST} {`, `${TEST_HOST}:${plan.port} {\n\ttls ${plan.certFile} ${plan.keyFile}`);
  site = replaceOnce(site, README_UPSTREAM, plan.upstream);
  // A test machine has no public name for automatic certificates, and no business with ports 80 and 2019.
  const globals = ["{", "\tadmin off", "\tauto_https disable_redirects", "\tskip_install_trust", `\tstorage file_system ${join(plan.dir, "data")}`, "}"];
  return [...globals, site].join("\n");
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function listening(port: number, deadline: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("error", () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on ${port}`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/** A self-signed certificate for TEST_HOST, made with openssl. */
function makeCertificate(dir: string) {
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
    "-keyout", keyFile, "-out", certFile,
    "-subj", `/CN=${TEST_HOST}`, "-addext", `subjectAltName=DNS:${TEST_HOST}`,
  ], { stdio: "pipe" });
  return { certFile, keyFile };
}

async function startProxy(kind: ProxyKind, plan: ProxyPlan): Promise<ChildProcess> {
  const configFile = join(plan.dir, kind === "nginx" ? "nginx.conf" : "Caddyfile");
  writeFileSync(configFile, kind === "nginx" ? nginxConfig(plan) : caddyConfig(plan));
  const args =
    kind === "nginx"
      ? ["-c", configFile, "-p", plan.dir, "-e", join(plan.dir, "error.log")]
      : ["run", "--config", configFile, "--adapter", "caddyfile"];
  // Caddy keeps its state under HOME / XDG folders: the test's own, not the machine's.
  const env = { PATH: process.env.PATH, HOME: plan.dir, XDG_DATA_HOME: plan.dir, XDG_CONFIG_HOME: plan.dir };
  const child = spawn(binary(kind), args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`${kind} exited with ${code}:\n${output}`))),
  );
  await Promise.race([listening(plan.port, Date.now() + 15_000), exited]);
  return child;
}

export interface ProxiedSite {
  /** The origin visitors use: https://dwell.test:PORT. */
  origin: string;
  /** The Dwell server itself, reached directly over http (another origin). */
  direct: string;
  dataDir: string;
  server: ServerProcess;
  stop(): Promise<void>;
}

/**
 * Starts Dwell with PUBLIC_URL and TRUST_PROXY as the README says, behind the README's proxy
 * example, and makes an admin account.
 */
export async function startProxiedSite(kind: ProxyKind, admin: { email: string; password: string }): Promise<ProxiedSite> {
  const dir = mkdtempSync(join(tmpdir(), `dwell-${kind}-`));
  const dataDir = join(dir, "data");
  const proxyDir = join(dir, kind);
  mkdirSync(proxyDir);
  const port = await freePort();
  const origin = `https://${TEST_HOST}:${port}`;
  const server = await startServerProcess({ DATA_DIR: dataDir, PUBLIC_URL: origin, TRUST_PROXY: "true", RATE_LIMIT_APPLICATIONS: "1000" });
  createAccountWithCommand(dataDir, admin.email, admin.password, "admin");
  const upstream = new URL(server.url).host;
  let proxy: ChildProcess | undefined;
  try {
    proxy = await startProxy(kind, { port, upstream, dir: proxyDir, ...makeCertificate(proxyDir) });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    origin,
    direct: server.url,
    dataDir,
    server,
    async stop() {
      if (proxy && proxy.exitCode === null) {
        const exited = new Promise((resolve) => proxy!.once("exit", resolve));
        proxy.kill("SIGTERM");
        await exited;
      }
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
