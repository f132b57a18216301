import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // scripts/build.ts builds each further language's browser code in a folder of its own.
  buildDirectory: process.env.DWELL_BUILD_DIRECTORY ?? "build",
} satisfies Config;
