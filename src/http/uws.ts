// The uWebSockets.js native addon for the running Node's ABI, loaded straight from its .node file (no JS fallback).
import { dirname, join } from 'node:path';
import type * as UwsTypes from '@btc-vision/uwebsockets.js';
import { dlopenNative, findNative, type NativeSearch } from '../native/load-native';
import { currentRuntime, uwsBuildFor, type UwsBuild } from '../native/uws-builds';

/** The uWS module surface we use. */
export type Uws = typeof UwsTypes;
/** The uWS types the server code uses, re-exported so only this file names the package. */
export type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_listen_socket, us_socket_context_t } from '@btc-vision/uwebsockets.js';

/** Loads the uWS addon for this platform, arch and Node ABI; throws UnsupportedRuntimeError for a Node it has no
 * build for, or an error naming the file it needed when that file is absent or cannot load. */
export function loadUws(search: NativeSearch): Uws {
  const { build, fileName } = uwsBuildFor(currentRuntime());
  const file = findNative(fileName, search, [packageBinariesDir(build)].filter((d): d is string => d !== null));
  if (!file) throw new Error(`uWebSockets.js native ${fileName} not found (looked in the native dir and ${build.pkg})`);
  return dlopenNative<Uws>(file);
}

function packageBinariesDir(build: UwsBuild): string | null {
  try {
    return join(dirname(require.resolve(build.pkg)), build.folderFromMain);
  } catch {
    return null;
  }
}
