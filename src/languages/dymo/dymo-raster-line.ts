// One raster line of a page as a LabelWriter line: SYN + bytes, or ETB + colour runs when that is shorter.
import { ETB, SYN } from './dymo-commands';

/** The longest run one ETB byte holds (bits 6..0 are the run length minus one). */
const MAX_RUN = 128;

/** True when every byte of `line` is 0 (nothing printed). */
export function isBlank(line: Uint8Array): boolean {
  for (const byte of line) if (byte !== 0) return false;
  return true;
}

/** The dot at `x` of `line` (MSB first), 1 for black. */
function dotAt(line: Uint8Array, x: number): number {
  return (line[x >> 3] >> (7 - (x & 7))) & 1;
}

/** ETB + runs of `line` (all its bits, `line.length * 8` dots): each byte is colour << 7 | (length - 1). */
export function compressedLine(line: Uint8Array): Buffer {
  const runs: number[] = [ETB];
  const dots = line.length * 8;
  let x = 0;
  while (x < dots) {
    const colour = dotAt(line, x);
    let length = 1;
    while (x + length < dots && length < MAX_RUN && dotAt(line, x + length) === colour) length += 1;
    runs.push((colour << 7) | (length - 1));
    x += length;
  }
  return Buffer.from(runs);
}

/** SYN + the line's bytes. */
export function plainLine(line: Uint8Array): Buffer {
  const out = Buffer.alloc(line.length + 1);
  out[0] = SYN;
  out.set(line, 1);
  return out;
}

/** The shorter of the plain and the compressed framing (`compress` off: always plain). */
export function rasterLine(line: Uint8Array, compress: boolean): Buffer {
  const plain = plainLine(line);
  if (!compress) return plain;
  const packed = compressedLine(line);
  return packed.length < plain.length ? packed : plain;
}
