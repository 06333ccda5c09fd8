// Telling a write the storage refused (full, over quota, read-only) from any other failure.

/** Error codes of a partition that refuses writes: full, over quota, read-only. */
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);

/** The errno code of a refused write (full, over quota, read-only), looking through `cause`; null for any other error. */
export function storageErrorCode(err: unknown): string | null {
  for (let e = err as (NodeJS.ErrnoException & { cause?: unknown }) | null | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth += 1) {
    if (typeof e.code === 'string' && STORAGE_CODES.has(e.code)) return e.code;
  }
  return null;
}

/** Rethrows `err` unless the storage refused the write: for best-effort writes whose loss costs less than failing. */
export function unlessStorageRefused(err: unknown): void {
  if (storageErrorCode(err) === null) throw err;
}
