// The uWebSockets.js native addon, loaded straight from its .node file (no silent JS fallback).
import { dirname, join } from 'node:path';
import type * as UwsTypes from '@trufflesuite/uws-js-unofficial';
import { dlopenNative, findNative, uwsAddonName, type NativeSearch } from '../native/load-native';

/** The uWS module surface we use. */
export type Uws = typeof UwsTypes;
/** The uWS types the server code uses, re-exported so only this file names the package. */
export type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_listen_socket, us_socket_context_t } from '@trufflesuite/uws-js-unofficial';

/** Loads the uWS addon for this platform; throws a clear error naming the file it needed. */
export function loadUws(search: NativeSearch): Uws {
  const name = uwsAddonName();
  const file = findNative(name, search, [packageBinariesDir()].filter((d): d is string => d !== null));
  if (!file) throw new Error(`uWebSockets.js native ${name} not found (looked in the native dir and node_modules)`);
  return dlopenNative<Uws>(file);
}

function packageBinariesDir(): string | null {
  try {
    return join(dirname(require.resolve('@trufflesuite/uws-js-unofficial/package.json')), 'binaries');
  } catch {
    return null;
  }
}
