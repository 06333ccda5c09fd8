// Start-up step of the single executable: its natives go to the cache folder and the loaders are pointed there.
import { join, resolve } from 'node:path';
import { embeddedAssets } from './embedded-assets';
import { extractNatives } from './native-cache';

/**
 * Returns the folder natives load from, and points the usb addon loader at it: inside the single executable, the
 * cache folder (`nativeDir`, else `<dataDir>/native-cache`) after extracting into it; otherwise `nativeDir` as given.
 * Throws NativeCacheError.
 */
export async function prepareNatives(nativeDir: string | undefined, dataDir: string): Promise<string | undefined> {
  const assets = embeddedAssets();
  const dir = assets ? await extractNatives(assets, resolve(nativeDir ?? join(dataDir, 'native-cache'))) : nativeDir;
  // the usb addon loader (the node-gyp-build shim inside the bundle) reads the folder from the environment
  if (dir) process.env.PRINTPROXY_NATIVE_DIR = dir;
  return dir;
}
