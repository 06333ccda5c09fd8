// The rule a share's `sharePath` must meet to be stored: an absolute folder strictly below the share root, away from the data dir.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError } from '../errors';
import { inside } from './share-roots';

/** Where shares may be mounted (`--share-root`) and the folder they must never overlap (`--data-dir`). */
export interface SharePathPolicy {
  shareRoot: string;
  dataDir: string;
}

/**
 * Throws INVALID_REQUEST naming `sharePath` unless `path` is absolute, has no `.` or `..` segment, lies strictly below the
 * share root, and neither holds nor lies in the data dir; checked as written and, for the parts that exist, after symlinks.
 */
export function checkSharePath(path: string, policy: SharePathPolicy): void {
  if (!path.startsWith('/')) throw refused('must be an absolute path');
  if (path.includes('\0')) throw refused('must not contain a NUL character');
  if (path.split('/').some((segment) => segment === '..' || segment === '.')) throw refused('must not contain . or .. segments');
  const written = resolve(path);
  checkPlace(written, resolve(policy.shareRoot), resolve(policy.dataDir));
  const real = realOrNull(written);
  if (real !== null) checkPlace(real, realOrNull(policy.shareRoot) ?? resolve(policy.shareRoot), realOrNull(policy.dataDir) ?? resolve(policy.dataDir));
}

function checkPlace(path: string, shareRoot: string, dataDir: string): void {
  if (path === shareRoot || !inside(path, shareRoot)) throw refused(`must be a folder below the share root ${shareRoot}`);
  if (inside(path, dataDir) || inside(dataDir, path)) throw refused('must not overlap the data dir');
}

function refused(why: string): AppError {
  return new AppError('INVALID_REQUEST', `sharePath ${why}`);
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
