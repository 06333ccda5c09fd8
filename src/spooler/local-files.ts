// Local file content: only inside the allowed roots, after `..` and symlinks are resolved (decisions.md).
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { AppError } from '../errors';

/** Resolves `path` through symlinks and checks it lies inside one of `roots`; throws 400 `Local path not allowed`. */
export function allowedLocalPath(path: string, roots: readonly string[]): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new AppError('INVALID_REQUEST', `Local path not allowed: ${path} does not exist inside an allowed folder`);
  }
  const inside = roots.some((root) => {
    let realRoot: string;
    try {
      realRoot = realpathSync(root);
    } catch {
      return false;
    }
    return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
  });
  if (!inside) throw new AppError('INVALID_REQUEST', `Local path not allowed: ${path} (allowed: the data folder's files/ and configured share mount points)`);
  return real;
}
