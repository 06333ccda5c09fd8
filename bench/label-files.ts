// The 4x6 in shipping label as an IPP client sends a 203 dpi sgray_8 label printer, for the IPP benches: Ghostscript's
// PWG Raster and a PNG of the same pixels.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decodePwgPages } from '../src/render/pwg-raster-decode';
import { shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';
import { encodePng } from '../test/fixtures/png-encode';

/** Ghostscript's PWG Raster device: what a driverless client sends a 4x6 in, 203 dpi, sgray_8 printer. */
const GS_PWG = ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pwgraster', '-r203', '-dFIXEDMEDIA', '-dDEVICEWIDTHPOINTS=288', '-dDEVICEHEIGHTPOINTS=432', '-dcupsColorSpace=18', '-dcupsBitsPerColor=8'];
/** Longest gs may take for the one page, ms. */
const GS_LIMIT_MS = 60_000;

/**
 * Writes the label into `dir` as the printer's own raster (4x6 in, 203 dpi, 8-bit sGray, as the servers advertise) and
 * as a PNG of the same pixels; their paths. Made with Ghostscript's pwgraster device: Debian 12's cupsfilter ignored the
 * PPD's page size and colour here, and made a US Letter sRGB page (1725x2233, 4.7 times the pixels) that no client
 * sends such a printer. Throws when gs made another page.
 */
export async function labelFiles(dir: string): Promise<{ png: string; pwg: string }> {
  const files = { pdf: join(dir, 'label.pdf'), pwg: join(dir, 'label.pwg'), png: join(dir, 'label.png') };
  writeFileSync(files.pdf, await shippingLabelPdf());
  await promisify(execFile)('gs', [...GS_PWG, `-sOutputFile=${files.pwg}`, files.pdf], { timeout: GS_LIMIT_MS, killSignal: 'SIGKILL' });
  const pwg = readFileSync(files.pwg);
  const [page] = [...decodePwgPages(pwg, (i) => i === 0)];
  if (!page) throw new Error('no page in the PWG raster');
  const header = new DataView(pwg.buffer, pwg.byteOffset + 4, 1796);
  const made = `${page.width}x${page.height} at ${page.dpi?.x} dpi, colour space ${header.getUint32(400)}, ${header.getUint32(384)} bits per colour`;
  if (made !== '812x1218 at 203 dpi, colour space 18, 8 bits per colour') throw new Error(`gs made a PWG Raster page of ${made}, not the 4x6 in sGray label`);
  writeFileSync(files.png, encodePng({ width: page.width, height: page.height, colorType: 0, bitDepth: 8, samples: (x, y) => [page.pixels[y * page.width + x]], pixelsPerMetre: Math.round(203 / 0.0254) }));
  return { png: files.png, pwg: files.pwg };
}
