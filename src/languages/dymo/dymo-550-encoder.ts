// Pages → LabelWriter 550 series raster (550, 550 Turbo, 5XL): a job header, per label its index, print data header and rows, a trailer.
import type { MonoBitmap } from '../../encoders/mono-bitmap';
import { labelSequenceEncoder } from '../../encoders/label-sequence';
import type { PageEncoderFactory } from '../../encoders/page-encoder';
import { density, END_JOB, labelIndex, NORMAL_DENSITY_PERCENT, printDataHeader, startJob } from './dymo-550-commands';
import { FORM_FEED, SHORT_FORM_FEED, TEXT_MODE, WIDE_HEAD_DOTS } from './dymo-commands';
import { halvedRow } from './dymo-encoder';

/** How a 550 job is written. */
export interface Dymo550EncoderOptions {
  /** Resolution of the pages: 300, or 600 (each 2 x 2 dots become one; the 550 prints 300 x 300 dpi only). */
  dpi: 300 | 600;
  /** The job id ESC s carries; by default each encoder takes the next of a counter. */
  jobId?: number;
  /** ESC C print density in percent (100 normal). */
  densityPercent: number;
}

/** 300 dpi, normal density, the next job id. */
export const DYMO_550_DEFAULTS: Readonly<Dymo550EncoderOptions> = { dpi: 300, densityPercent: NORMAL_DENSITY_PERCENT };

let lastJobId = 0;

/** The next job id, 1..2^32-1, wrapping. */
function nextJobId(): number {
  lastJobId = (lastJobId % 0xffffffff) + 1;
  return lastJobId;
}

/** Dots across of `page` sent at 300 dpi, at most the widest head's 1248. */
export function dotsPerLine(page: MonoBitmap, dpi: 300 | 600): number {
  return Math.min(dpi === 600 ? Math.ceil(page.width / 2) : page.width, WIDE_HEAD_DOTS);
}

/** Row `y` of `page`, its first `width` bytes (zero-padded past the page). */
function row(page: MonoBitmap, y: number, width: number): Uint8Array {
  const out = new Uint8Array(width);
  const start = y * page.bytesPerRow;
  out.set(page.data.subarray(start, start + Math.min(width, page.bytesPerRow)));
  return out;
}

/** The label's rows at 300 x 300 dpi: as they are at 300 dpi; at 600, halved across and each pair of rows merged (black when either is). */
function rows300(page: MonoBitmap, dpi: 300 | 600, width: number): Uint8Array[] {
  if (dpi === 300) return Array.from({ length: page.height }, (_, y) => row(page, y, width));
  const out: Uint8Array[] = [];
  for (let y = 0; y < page.height; y += 2) {
    const line = halvedRow(page, y, width);
    if (y + 1 < page.height) halvedRow(page, y + 1, width).forEach((byte, x) => (line[x] |= byte));
    out.push(line);
  }
  return out;
}

/** One label's print data: the ESC D header, then every row (blank ones too: the 550 has no skip), unframed. */
export function dymo550PrintData(page: MonoBitmap, dpi: 300 | 600 = 300): Buffer {
  const dots = dotsPerLine(page, dpi);
  const lines = rows300(page, dpi, Math.ceil(dots / 8));
  return Buffer.concat([printDataHeader(lines.length, dots), ...lines]);
}

/**
 * An encoder factory with `options` over DYMO_550_DEFAULTS: ESC s, ESC h, ESC C, then each page `copies` times as
 * ESC n (1, 2, …) + print data + ESC G, then ESC E (to the tear bar) and ESC Q, as DYMO's own software orders them.
 */
export function dymo550EncoderWith(options: Partial<Dymo550EncoderOptions> = {}): PageEncoderFactory {
  const settings = { ...DYMO_550_DEFAULTS, ...options };
  return labelSequenceEncoder(
    (page, copies) => Array<Buffer>(copies).fill(dymo550PrintData(page, settings.dpi)),
    (labels) => [
      startJob(settings.jobId ?? nextJobId()),
      TEXT_MODE,
      density(settings.densityPercent),
      ...labels.flatMap((data, n) => [labelIndex(n + 1), data, SHORT_FORM_FEED]),
      FORM_FEED,
      END_JOB,
    ],
  );
}
