import { readdirSync } from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const features = readdirSync(`${import.meta.dirname}/app/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Imports run one way: components, utils, db -> features -> flows -> routes -> server.
 * A feature never imports another feature; a flow (one act across features) or a route composes them.
 */
const boundaries = [
  { target: "./app/components", from: ["./app/features", "./app/flows", "./app/routes", "./app/db"], message: "UI primitives know no domain." },
  { target: "./app/utils", from: ["./app/features", "./app/flows", "./app/routes"], message: "utils are generic." },
  { target: "./app/db", from: ["./app/features", "./app/flows", "./app/routes"], message: "the database layer knows no feature." },
  { target: "./app/features", from: ["./app/flows", "./app/routes"], message: "features are composed by flows and routes, not the other way." },
  { target: "./app/flows", from: ["./app/routes"], message: "flows are called by routes, not the other way." },
  { target: "./app", from: ["./server"], message: "the app does not import the server." },
  ...features.map((feature) => ({
    target: `./app/features/${feature}`,
    from: "./app/features",
    except: [`./${feature}`],
    message: "a feature never imports another feature; compose them in a route.",
  })),
];

export default tseslint.config(
  {
    ignores: ["build/", ".react-router/", "app/paraglide/", "node_modules/", "data/", "test-results/", "test-results-evening/", "playwright-report/", "playwright-report-evening/", "drizzle/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "import-x": importX, "react-hooks": reactHooks },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "import-x/no-restricted-paths": ["error", { zones: boundaries }],
      "import-x/no-cycle": "error",
      "import-x/no-duplicates": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-empty": ["error", { allowEmptyCatch: false }],
    },
  },
);
