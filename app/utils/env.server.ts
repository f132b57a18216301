import { z } from "zod";

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    error: "expected true or false",
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const optionalUrl = z
  .url({ protocol: /^https?$/, error: "expected an http(s) URL" })
  .optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce
    .number({ error: "expected a port number" })
    .int()
    .min(0)
    .max(65535)
    .default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: "expected a postgres:// URL" })
    .optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "expected the site's origin, e.g. https://dwell.example" })
    .optional(),
  DEMO_CONTENT: booleanFromEnv.default(true),
  DISCORD_INVITE_URL: optionalUrl,
  HERO_VIDEO_URL: optionalUrl,
});

export type Env = z.infer<typeof EnvSchema>;

export type Config = Omit<Env, "PUBLIC_URL"> & {
  /** The site's origin without a trailing slash. */
  PUBLIC_URL: string;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads the configuration once, at boot. Empty strings count as unset, so a `.env` copied from
 * `.env.example` with blank values behaves like no value at all.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join(".")}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  return { ...env, PUBLIC_URL: publicUrl };
}

/** What the browser may see of the configuration: an explicit allowlist. */
export function publicConfig(config: Config) {
  return {
    discordInviteUrl: config.DISCORD_INVITE_URL ?? null,
    heroVideoUrl: config.HERO_VIDEO_URL ?? null,
  };
}

export type PublicConfig = ReturnType<typeof publicConfig>;
