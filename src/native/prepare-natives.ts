// Start-up step of the single executable: its natives go to the cache folder and the loaders are pointed there.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { embeddedAssets, type EmbeddedAssets } from './embedded-assets';
import { extractNativesOrTemp } from './native-cache';

/**
 * Returns the folder natives load from, and points the usb addon loader at it: inside the single executable, the
 * cache folder (`nativeDir`, else `<dataDir>/native-cache`) after extracting into it, or a private folder in the
 * system's temporary folder when that partition is full or read-only (said through `warn`); otherwise `nativeDir` as
 * given. Throws NativeCacheError.
 */
export async function prepareNatives(nativeDir: string | undefined, dataDir: string, warn: (line: string) => void): Promise<string | undefined> {
  const assets = embeddedAssets();
  const dir = assets ? await extract(assets, resolve(nativeDir ?? join(dataDir, 'native-cache')), warn) : nativeDir;
  // the usb addon loader (the node-gyp-build shim inside the bundle) reads the folder from the environment
  if (dir) process.env.PRINTPROXY_NATIVE_DIR = dir;
  return dir;
}

async function extract(assets: EmbeddedAssets, root: string, warn: (line: string) => void): Promise<string> {
  const { dir, fellBack } = await extractNativesOrTemp(assets, root, tmpdir());
  if (fellBack) warn(`native cache ${root} cannot be written (storage full or read-only): natives extracted to ${dir} for this run`);
  return dir;
}
