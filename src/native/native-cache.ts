// Writes the natives embedded in the single executable to disk once, so process.dlopen can load them.
import { NativeCacheError, NativeFolderError } from '../errors';
import { existsSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../settings/atomic-file';
import { MANIFEST_ASSET, type EmbeddedAssets, type NativeManifest } from './embedded-assets';
import { isNoexecFolder } from './mount-options';
import { storageErrorCode } from '../util/storage-error';

const COMPLETE = '.complete';

/**
 * Extracts every native of `assets` into `<root>/<manifest hash>/` unless a previous start already did, removes the
 * folders of other builds, and returns the folder. Throws NativeCacheError when `root` is mounted noexec.
 */
export async function extractNatives(assets: EmbeddedAssets, root: string): Promise<string> {
  const manifest = JSON.parse(Buffer.from(assets.get(MANIFEST_ASSET)).toString('utf8')) as NativeManifest;
  await makeFolder(root);
  if (isNoexecFolder(root)) {
    throw new NativeCacheError(`native cache folder ${root} is on a filesystem mounted noexec, so its natives could not be loaded; point --native-dir (or PRINTPROXY_NATIVE_DIR) at a folder on an exec-allowed mount`);
  }
  const dir = join(root, manifest.hash.slice(0, 16));
  if (!existsSync(join(dir, COMPLETE))) {
    await makeFolder(dir);
    for (const [name, size] of Object.entries(manifest.natives)) {
      const bytes = assets.get(name);
      if (bytes.length !== size) throw new NativeCacheError(`embedded native ${name} is ${bytes.length} bytes, the manifest says ${size}: the executable is damaged`);
      await writeFileAtomic(join(dir, name), bytes);
    }
    await writeFileAtomic(join(dir, COMPLETE), manifest.hash);
  }
  await removeOtherBuilds(root, dir);
  return dir;
}

/**
 * extractNatives into `root`; when its partition refuses the writes or the folder (full, read-only), into a new private folder made
 * under `tmp` instead (RAM on the device: extracted again at each start until the partition has room). `fellBack` says which.
 */
export async function extractNativesOrTemp(assets: EmbeddedAssets, root: string, tmp: string): Promise<{ dir: string; fellBack: boolean }> {
  try {
    return { dir: await extractNatives(assets, root), fellBack: false };
  } catch (err) {
    if (storageErrorCode(err) === null && !(err instanceof NativeFolderError)) throw err;
    // mkdtemp: a new folder, 0700, that nobody else can have prepared
    const fresh = await fs.mkdtemp(join(tmp, 'printproxyd-native-'));
    return { dir: await extractNatives(assets, fresh), fellBack: true };
  }
}

async function makeFolder(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new NativeFolderError(`cannot create the native cache folder ${dir}: ${(err as Error).message}`, { cause: err });
  }
}

async function removeOtherBuilds(root: string, keep: string): Promise<void> {
  for (const entry of await fs.readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory() && path !== keep && /^[0-9a-f]{16}$/.test(entry.name)) await fs.rm(path, { recursive: true, force: true });
  }
}
