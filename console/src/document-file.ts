// A chosen file as a print body: its bytes in base64 and the contentType its first bytes (or name) announce.

/** The print body fields of a document. */
export interface DocumentBody {
  content: string;
  contentType: 'pdf_base64' | 'image_base64' | 'zpl_base64' | 'raw_base64';
}

/** Reads `file` into a print body: PDF, PNG and JPEG by their magic bytes, ZPL by `^XA`/`~` or a .zpl name, anything else raw. */
export async function documentBody(file: File): Promise<DocumentBody> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { content: base64(bytes), contentType: contentTypeOf(bytes, file.name) };
}

function contentTypeOf(bytes: Uint8Array, name: string): DocumentBody['contentType'] {
  const head = String.fromCharCode(...bytes.subarray(0, 8));
  if (head.startsWith('%PDF-')) return 'pdf_base64';
  if (head.startsWith('\x89PNG') || (bytes[0] === 0xff && bytes[1] === 0xd8)) return 'image_base64';
  if (/\.zpl$/i.test(name) || /^\s*[\^~]/.test(head)) return 'zpl_base64';
  return 'raw_base64';
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
