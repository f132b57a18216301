import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "@react-router/dev/config";

// The benchmark builds the floor into a folder of its own for each run.
export default {
  ssr: true,
  buildDirectory: process.env.DWELL_BENCH_FLOOR_BUILD ?? join(tmpdir(), "dwell-bench-floor"),
} satisfies Config;
