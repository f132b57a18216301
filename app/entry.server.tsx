/**
 * Renders a page on the server. Differs from React Router's default in two ways: every inline
 * script carries the request's Content-Security-Policy nonce, and render errors go to the
 * structured log.
 */
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import {
  isRouteErrorResponse,
  ServerRouter,
  type EntryContext,
  type RouterContextProvider,
} from "react-router";
import { appContext } from "./context";
import { log } from "./utils/log.server";
import { NonceProvider } from "./utils/nonce";

/** How long a streamed response may wait for data still loading before it is cut short. */
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { cspNonce } = loadContext.get(appContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Crawlers get the whole page at once; people get the shell as soon as it is ready.
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    // Abort a little after the stream timeout, so rejected boundaries still reach the browser.
    let timeout: NodeJS.Timeout | undefined = setTimeout(() => abort(), streamTimeout + 1_000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={cspNonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={cspNonce} />
      </NonceProvider>,
      {
        nonce: cspNonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeout);
              timeout = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell was ready reject above, and React Router logs them.
          if (shellRendered) log.error("rendering the page failed", { error, path: new URL(request.url).pathname });
        },
      },
    );
  });
}

/** Errors thrown by loaders and actions, which React Router would otherwise print raw. */
export function handleError(error: unknown, { request }: { request: Request }) {
  // An aborted request (the visitor left) is not an error of the site.
  if (request.signal.aborted) return;
  // A 4xx answer (an unknown URL, a refused request) is already in the request log line.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  log.error("request failed", { error, method: request.method, path: new URL(request.url).pathname });
}
