// Compiles the message catalogues (messages/*.json) to app/paraglide/: run by `npm install`, so that
// the type check, the tests and scripts find them before any build.
import { compile } from "@inlang/paraglide-js";
import { MESSAGES_COMPILE_OPTIONS } from "../messages.config.ts";

await compile(MESSAGES_COMPILE_OPTIONS);
