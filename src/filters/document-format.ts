// The format of a job's loaded bytes: as declared, or recognised by magic bytes (render/format-magic.ts).
import { DeviceError } from '../errors';
import { sniffFormat } from '../render/format-magic';
import type { DeclaredFormat, DocumentFormat } from '../schemas/document-format';

export type { DeclaredFormat, DocumentFormat } from '../schemas/document-format';
export { isPdf, sniffFormat } from '../render/format-magic';

/** The format of loaded bytes: a declared format as is; `auto` becomes pdf, png or jpeg by magic bytes, else raw; `image` must be png or jpeg (DeviceError UNSUPPORTED_CONTENT otherwise). */
export function resolveFormat(format: DeclaredFormat, bytes: Uint8Array): DocumentFormat {
  if (format === 'auto') return sniffFormat(bytes) ?? 'raw';
  if (format !== 'image') return format;
  const sniffed = sniffFormat(bytes);
  if (sniffed === 'png' || sniffed === 'jpeg') return sniffed;
  throw new DeviceError('UNSUPPORTED_CONTENT', 'the image is neither PNG nor JPEG');
}
