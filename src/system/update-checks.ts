// The checks of a bundle before anything is written to a slot: signature (rauc info), compatible, version, no downgrade,
// and every byte of the payload against its signed hashes.
import { BundleCheckError } from '../errors';
import { checkBundlePayload } from './bundle-payload';
import type { RaucClient } from './rauc-client';
import { compareVersions } from './semver';

/** Throws BundleCheckError('downgrade') when `to` is not newer than `from` and downgrades are not allowed. */
export function checkNotDowngrade(to: string, from: string | null, allowDowngrade: boolean): void {
  if (allowDowngrade || from === null) return;
  if (compareVersions(to, from) <= 0) throw new BundleCheckError('downgrade', `version ${to} is not newer than the installed ${from} (allowDowngrade over HTTP installs it anyway)`);
}

/**
 * Verifies `file` with RAUC: its signature against the system keyring (`rauc info`), its compatible against the system's,
 * its manifest version against `expected` (when given), no downgrade from `from`, then the whole payload against the
 * hashes the signature covers (bundle-payload.ts). Resolves with the manifest's version.
 */
export async function verifyBundle(rauc: RaucClient, file: string, expected: string | null, from: string | null, allowDowngrade: boolean): Promise<string> {
  let info;
  try {
    info = await rauc.info(file);
  } catch (err) {
    throw new BundleCheckError('signature', `rauc info refused the bundle: ${(err as Error).message}`);
  }
  const system = await rauc.compatible();
  if (info.compatible !== system) throw new BundleCheckError('compatible', `the bundle is for ${JSON.stringify(info.compatible)}, this device is ${JSON.stringify(system)}`);
  if (expected !== null && info.version !== expected) throw new BundleCheckError('version', `the bundle's manifest says ${info.version}, the request ${expected}`);
  checkNotDowngrade(info.version, from, allowDowngrade);
  await checkBundlePayload(file);
  return info.version;
}
