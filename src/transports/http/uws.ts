import { createRequire } from 'node:module';
import type * as UWS from 'uWebSockets.js';

/**
 * Loads the native uWebSockets.js binary directly. The package's own loader falls back to
 * a slow pure-JS server with only a console warning when the binary fails to load
 * (DESIGN.md); Tocsin refuses to start instead.
 */
function loadNative(): typeof UWS {
  const require = createRequire(import.meta.url);
  const binary = `uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  try {
    return require(binary) as typeof UWS;
  } catch (err) {
    throw new Error(`the native uWebSockets.js module could not be loaded (${binary}): ${(err as Error).message}`);
  }
}

export const uws = loadNative();
export type { HttpRequest, HttpResponse, ListenOptions, TemplatedApp, WebSocket, us_listen_socket } from 'uWebSockets.js';
