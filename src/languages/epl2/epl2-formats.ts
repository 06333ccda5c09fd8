// Counts the labels (P commands) in EPL2 bytes, stepping over the binary data of GW and GM so no data byte is read as a command.

const LF = 0x0a;
/** `GWx,y,bytesPerRow,rows,` (data follows the comma) or the same ending its line (data follows the line end). */
const GW_HEAD = /^GW\d+,\d+,(\d+),(\d+)(,|\r?\n)/;
/** `GM"NAME"size` then a line end: a PCX graphic of `size` bytes stored in memory. */
const GM_HEAD = /^GM"[^"\r\n]*"(\d+)\r?\n/;
/** A print command: P and label sets, optionally copies (`P1`, `P1,3`). */
const PRINT_LINE = /^P\d+(,\d+)?\s*$/;

/** Where the command starting at `at` ends: past a graphic's data, or past its line end. */
function commandEnd(bytes: Uint8Array, at: number): { end: number; line: string } {
  const head = Buffer.from(bytes.subarray(at, at + 64)).toString('latin1');
  const gw = GW_HEAD.exec(head);
  if (gw) return { end: at + gw[0].length + Number(gw[1]) * Number(gw[2]), line: '' };
  const gm = GM_HEAD.exec(head);
  if (gm) return { end: at + gm[0].length + Number(gm[1]), line: '' };
  const lf = bytes.indexOf(LF, at);
  const end = lf < 0 ? bytes.length : lf + 1;
  return { end, line: Buffer.from(bytes.subarray(at, end)).toString('latin1').trim() };
}

/** Number of labels EPL2 `bytes` print: one per P command (label sets × copies not multiplied); 0 when there is none. */
export function countEpl2Formats(bytes: Uint8Array): number {
  let count = 0;
  for (let at = 0; at < bytes.length; ) {
    const { end, line } = commandEnd(bytes, at);
    if (PRINT_LINE.test(line)) count += 1;
    at = Math.max(end, at + 1);
  }
  return count;
}
