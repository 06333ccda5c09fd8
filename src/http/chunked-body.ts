// Finds where a chunked message body ends (RFC 9112 section 7.1) in bytes that arrive in pieces, without decoding it.
import { ChunkedFramingError } from '../errors';

/** The longest chunk-size or trailer line taken, extensions included. */
const MAX_LINE = 8192;
/** Hex digits of a chunk size: 12 keeps it below 2^48, an exact integer. */
const MAX_SIZE_DIGITS = 12;
const CR = 0x0d;
const LF = 0x0a;

/** Follows one chunked body across the pieces given to `scan`, from its first chunk-size line to its last trailer line. */
export class ChunkedBody {
  private state: 'size' | 'data' | 'data-end' | 'trailer' = 'size';
  private size = 0;
  private digits = 0;
  private inExtension = false;
  private line = 0;
  private remaining = 0;
  /** Where the trailer section (after the last chunk's size line, up to the body's end) starts in the piece last scanned; -1: not in it. */
  trailerStart = -1;

  /** The index in `bytes` just after the body's last byte, or -1 when every byte from `from` on belongs to it; throws ChunkedFramingError. */
  scan(bytes: Uint8Array, from = 0): number {
    let i = from;
    this.trailerStart = this.state === 'trailer' ? from : -1;
    while (i < bytes.length) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, bytes.length - i);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      const byte = bytes[i++];
      if (this.state === 'size') {
        if (this.sizeByte(byte)) this.trailerStart = i;
      } else if (this.state === 'data-end') this.dataEndByte(byte);
      else if (this.trailerByte(byte)) return i;
    }
    return -1;
  }

  /** True when `byte` ends the last chunk's size line (the trailer section starts after it). */
  private sizeByte(byte: number): boolean {
    if (byte === LF) {
      if (this.digits === 0) throw new ChunkedFramingError('a chunk-size line without a size');
      const last = this.size === 0;
      this.state = last ? 'trailer' : 'data';
      this.remaining = this.size;
      this.size = 0;
      this.digits = 0;
      this.inExtension = false;
      this.line = 0;
      return last;
    }
    if (++this.line > MAX_LINE) throw new ChunkedFramingError('a chunk-size line is too long');
    if (byte === CR || this.inExtension) return false;
    const value = hexValue(byte);
    if (value >= 0 && this.digits < MAX_SIZE_DIGITS) {
      this.size = this.size * 16 + value;
      this.digits += 1;
    } else if ((byte === 0x3b || byte === 0x20 || byte === 0x09) && this.digits > 0) {
      this.inExtension = true;
    } else {
      throw new ChunkedFramingError('a chunk size is not hexadecimal');
    }
    return false;
  }

  private dataEndByte(byte: number): void {
    if (byte === LF) this.state = 'size';
    else if (byte !== CR) throw new ChunkedFramingError('chunk data is longer than its size');
  }

  /** True when `byte` ends the empty line that closes the body. */
  private trailerByte(byte: number): boolean {
    if (byte === LF) {
      if (this.line === 0) return true;
      this.line = 0;
      return false;
    }
    if (byte !== CR && ++this.line > MAX_LINE) throw new ChunkedFramingError('a trailer line is too long');
    return false;
  }
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
