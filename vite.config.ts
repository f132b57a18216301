import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // The Hono server is the SSR entry, so it, the routes, the database and auth share one bundle
  // (and one database connection). Vite 8 ignores the top-level build.rollupOptions recipe here.
  environments: {
    ssr: {
      build: {
        rolldownOptions: { input: "./server/app.ts" },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});
