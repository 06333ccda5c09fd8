// Recognises TSPL in a raw byte stream from its first command, for documents sent without a declared format.

/** Commands a TSPL job starts with: media setup, CLS, downloads. (`<ESC>!` is left out: ESC/POS uses ESC ! for its print mode.) */
const FIRST_COMMAND = /^(SIZE|GAP|BLINE|CLS|DIRECTION|DENSITY|SPEED|REFERENCE|OFFSET|SHIFT|CODEPAGE|SET|DOWNLOAD|KILL|HOME|FORMFEED|INITIALPRINTER)(\s|$)/;

/** True when the first non-blank line of `bytes` (first 256 bytes read) starts with a TSPL setup command. */
export function looksLikeTspl(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1').replace(/^[\s\x00]+/, '');
  const line = head.split(/\r?\n/, 1)[0].toUpperCase();
  return FIRST_COMMAND.test(line);
}
