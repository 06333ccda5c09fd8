// Turns the part of a request path below a static mount into a file path, refusing anything that could climb out.
import { AppError } from '../errors';

/**
 * The decoded path below the mount ('' for the mount itself, a trailing '/' kept) of `rawRest`, still percent-encoded.
 * Throws INVALID_REQUEST for bad percent-encoding, NUL, backslash, and `.` or `..` segments (also when encoded).
 */
export function staticPathOf(rawRest: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawRest);
  } catch {
    throw new AppError('INVALID_REQUEST', 'the path is not valid percent-encoding');
  }
  if (decoded.includes('\0') || decoded.includes('\\')) throw new AppError('INVALID_REQUEST', 'the path contains NUL or a backslash');
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.')) throw new AppError('INVALID_REQUEST', 'the path contains a . or .. segment');
  return segments.filter((s, i) => s !== '' || i === segments.length - 1).join('/');
}
