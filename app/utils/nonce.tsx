/**
 * The Content-Security-Policy nonce of the page being rendered. The server sets it around the
 * whole render (entry.server.tsx); in the browser it is empty, because browsers hide nonces from
 * the page, and nothing there needs it.
 */
import { createContext, useContext } from "react";

const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
