// The JSON print body (seed-api.md 2.4) for a file sent from the fleet side: ZPL as text, anything else as base64.

/** Print body fields the command line sets. */
export interface PrintBodyOptions {
  wait: boolean;
  title?: string;
  /** One of the API's content types; chosen from the file name when absent. */
  contentType?: string;
}

/** The body of `POST /print/<target>` carrying `bytes`, named `fileName` (for a `…_url` content type, `fileName` is the URL itself). */
export function printBody(fileName: string, bytes: Uint8Array, options: PrintBodyOptions): Record<string, unknown> {
  const contentType = options.contentType ?? contentTypeOf(fileName);
  const content = contentType.endsWith('_url') ? fileName : contentType === 'zpl' ? Buffer.from(bytes).toString('utf8') : Buffer.from(bytes).toString('base64');
  return { contentType, content, wait: options.wait, title: options.title ?? baseName(fileName), source: 'printproxyd fleet' };
}

/** `zpl` for .zpl files, `pdf_base64` for .pdf, `raw_base64` otherwise. */
export function contentTypeOf(fileName: string): string {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.zpl')) return 'zpl';
  if (lower.endsWith('.pdf')) return 'pdf_base64';
  return 'raw_base64';
}

function baseName(path: string): string {
  return path.split(/[?#]/)[0].split(/[\\/]/).pop() || path;
}
