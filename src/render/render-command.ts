// `printproxyd render INPUT.pdf|.png|.jpg [--size 4x6] [--dpi 203] [--receipt 576] [-o OUT] …`: the device's render pipeline from the shell.
import { parseArgs } from 'node:util';
import { toDeviceError, UsageError } from '../errors';
import { LANGUAGES, languagesByRank, type LanguageModule } from '../languages';
import type { Orientation } from './label-geometry';
import { parseMediaSize } from '../util/media-size';
import { sniffFormat } from './format-magic';
import { initPdfium } from './pdfium-init';
import { createRasterisers } from './rasteriser-table';
import { renderDocument, type LocalRenderJob } from './render-document';
import type { EncodeSpec } from './render-job';
import { checkCopies, resolveRaster } from './render-options';

/** What the command touches: files, output streams, and the pdfium.wasm bytes. */
export interface RenderCommandIo {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  stdout(data: Uint8Array): void;
  stderr(text: string): void;
  loadWasm(): Promise<Uint8Array>;
}

/** Usage text of the command. */
export const RENDER_USAGE = `usage: printproxyd render INPUT.pdf|INPUT.png|INPUT.jpg [--size 4x6|100x150mm|na_index-4x6_4x6in] [--dpi 203]
       [--pages 1-3,5] [--orientation portrait|landscape|reverse-landscape|reverse-portrait]
       [--fit] [--copies N] [--dither] [--language NAME] [--receipt WIDTH_DOTS] [-o OUT]
       (labels in the first label language, or in NAME: ${drawing('label').map((l) => l.name).join(', ')}; with --receipt a raster
       receipt that wide, e.g. 576 for 80 mm paper, in ${drawing('receipt').map((l) => l.name).join(', ')}; stdout without -o)
`;

/** The languages that draw pages of `geometry`, in rank order. */
function drawing(geometry: 'label' | 'receipt'): LanguageModule[] {
  return languagesByRank().filter((language) => language.pages?.geometry === geometry);
}

/** The language of `--language NAME` (or the first by rank) drawing pages of `geometry`; a usage error for any other. */
function languageFor(name: string | undefined, geometry: 'label' | 'receipt'): LanguageModule {
  const found = name === undefined ? drawing(geometry)[0] : drawing(geometry).find((language) => language.name === name);
  if (found) return found;
  const known = Object.hasOwn(LANGUAGES, name ?? '');
  throw new UsageError(known ? `--language ${name} does not draw ${geometry === 'receipt' ? 'receipts (--receipt)' : 'labels'}` : `unknown --language "${name ?? ''}"`);
}

const ORIENTATIONS: readonly string[] = ['portrait', 'landscape', 'reverse-landscape', 'reverse-portrait'];

type Parsed = { input: string; out: string | undefined; job: Omit<LocalRenderJob, 'format' | 'bytes'> };

function parse(argv: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        size: { type: 'string' }, dpi: { type: 'string' }, output: { type: 'string', short: 'o' }, pages: { type: 'string' },
        orientation: { type: 'string' }, fit: { type: 'boolean' }, copies: { type: 'string' }, dither: { type: 'boolean' }, receipt: { type: 'string' },
        language: { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('expected exactly one INPUT file');
  if (v.size !== undefined && !parseMediaSize(v.size)) throw new UsageError(`unknown --size "${v.size}"`);
  if (v.orientation !== undefined && !ORIENTATIONS.includes(v.orientation)) throw new UsageError(`unknown --orientation "${v.orientation}"`);
  const num = (name: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be a whole number, got "${text}"`);
    return Number(text);
  };
  const widthDots = num('receipt', v.receipt);
  const raster = {
    paperSize: v.size, dpi: num('dpi', v.dpi) ?? 203, pageRange: v.pages, orientation: v.orientation as Orientation | undefined,
    fitToPage: v.fit, dither: v.dither, widthDots,
  };
  const copies = num('copies', v.copies) ?? 1;
  const encode: EncodeSpec = { language: languageFor(v.language, widthDots !== undefined ? 'receipt' : 'label').name, copies };
  return { input: positionals[0], out: v.output, job: { raster, encode } };
}

function checkAsUsage(job: Parsed['job']): void {
  try {
    resolveRaster(job.raster);
    checkCopies(job.encode);
  } catch (err) {
    throw new UsageError(toDeviceError(err).message);
  }
}

/** Runs the command; returns the exit code: 0 done, 1 the document could not be read or rendered, 2 bad arguments. */
export async function runRenderCommand(argv: string[], io: RenderCommandIo): Promise<number> {
  try {
    const { input, out, job } = parse(argv);
    checkAsUsage(job);
    const [bytes, wasm] = await Promise.all([io.readFile(input), io.loadWasm()]);
    const report = renderDocument({ ...job, format: sniffFormat(bytes) ?? 'pdf', bytes }, createRasterisers(await initPdfium(wasm)));
    if (out) await io.writeFile(out, report.bytes);
    else io.stdout(report.bytes);
    const written = job.encode.language === 'png' ? null : LANGUAGES[job.encode.language];
    const what = written?.pages?.geometry === 'receipt' ? 'dot receipt pages' : 'dot labels';
    const language = written?.displayName ?? 'PNG';
    io.stderr(`rendered ${report.pages} of ${report.documentPages} pages as ${report.widthDots}x${report.heightDots} ${what} at ${job.raster.dpi} dpi, ${report.bytes.length} bytes of ${language}${out ? ` to ${out}` : ''}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`printproxyd render: ${err.message}\n${RENDER_USAGE}`);
      return 2;
    }
    io.stderr(`printproxyd render: ${toDeviceError(err, 'RENDER_FAILED').message}\n`);
    return 1;
  }
}
