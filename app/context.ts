import { createContext } from "react-router";
import type { Database } from "~/db/db.server";
import type { Config } from "~/utils/env.server";

/** What every loader and action gets from the server: set once per request in server/app.ts. */
export interface AppContext {
  db: Database;
  config: Config;
}

export const appContext = createContext<AppContext>();
