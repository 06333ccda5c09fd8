// How loaded bytes announce their document format: the magic numbers of PDF, PWG Raster, URF, PNG and JPEG.

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** True when `bytes` start with `magic`. */
function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

/** True when the bytes start like a PDF file (`%PDF-`). */
export function isPdf(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d]);
}

/** The format the bytes announce by their magic number: pdf, png, jpeg, pwg (`RaS2`), urf (`UNIRAST`), else null. */
export function sniffFormat(bytes: Uint8Array): 'pdf' | 'png' | 'jpeg' | 'pwg' | 'urf' | null {
  if (isPdf(bytes)) return 'pdf';
  if (startsWith(bytes, [0x52, 0x61, 0x53, 0x32])) return 'pwg';
  if (startsWith(bytes, [0x55, 0x4e, 0x49, 0x52, 0x41, 0x53, 0x54, 0x00])) return 'urf';
  if (startsWith(bytes, PNG_MAGIC)) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  return null;
}
