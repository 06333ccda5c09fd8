// `printproxyd render INPUT.pdf [--size 4x6] [--dpi 203] [-o OUT.zpl] …`: the device's PDF → ZPL pipeline from the shell.
import { parseArgs } from 'node:util';
import { toDeviceError } from '../errors';
import { parseMediaSize } from './media-size';
import { PdfRenderer } from './pdf-renderer';
import { initPdfium } from './pdfium-init';
import { resolveRenderOptions, type LabelRenderOptions } from './render-options';
import type { Orientation } from './label-geometry';

/** What the command touches: files, output streams, and the pdfium.wasm bytes. */
export interface RenderCommandIo {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  stdout(data: Uint8Array): void;
  stderr(text: string): void;
  loadWasm(): Promise<Uint8Array>;
}

/** Usage text of the command. */
export const RENDER_USAGE = `usage: printproxyd render INPUT.pdf [--size 4x6|100x150mm|na_index-4x6_4x6in] [--dpi 203]
       [--pages 1-3,5] [--orientation portrait|landscape|reverse-landscape|reverse-portrait]
       [--fit] [--copies N] [--dither] [-o OUT.zpl]   (ZPL goes to stdout without -o)
`;

const ORIENTATIONS: readonly string[] = ['portrait', 'landscape', 'reverse-landscape', 'reverse-portrait'];

class UsageError {
  constructor(readonly message: string) {}
}

function parse(argv: string[]): { input: string; out: string | undefined; opts: LabelRenderOptions } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        size: { type: 'string' }, dpi: { type: 'string' }, output: { type: 'string', short: 'o' }, pages: { type: 'string' },
        orientation: { type: 'string' }, fit: { type: 'boolean' }, copies: { type: 'string' }, dither: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('expected exactly one INPUT.pdf');
  if (v.size !== undefined && !parseMediaSize(v.size)) throw new UsageError(`unknown --size "${v.size}"`);
  if (v.orientation !== undefined && !ORIENTATIONS.includes(v.orientation)) throw new UsageError(`unknown --orientation "${v.orientation}"`);
  const num = (name: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be a whole number, got "${text}"`);
    return Number(text);
  };
  const opts: LabelRenderOptions = {
    paperSize: v.size, dpi: num('dpi', v.dpi), pageRange: v.pages, orientation: v.orientation as Orientation | undefined,
    fitToPage: v.fit, copies: num('copies', v.copies), dither: v.dither,
  };
  return { input: positionals[0], out: v.output, opts };
}

function resolveAsUsage(opts: LabelRenderOptions) {
  try {
    return resolveRenderOptions(opts);
  } catch (err) {
    throw new UsageError(toDeviceError(err).message);
  }
}

/** Runs the command; returns the exit code: 0 done, 1 the PDF could not be read or rendered, 2 bad arguments. */
export async function runRenderCommand(argv: string[], io: RenderCommandIo): Promise<number> {
  try {
    const { input, out, opts } = parse(argv);
    const resolved = resolveAsUsage(opts);
    const [pdf, wasm] = await Promise.all([io.readFile(input), io.loadWasm()]);
    const result = new PdfRenderer(await initPdfium(wasm)).render(pdf, resolved);
    if (out) await io.writeFile(out, result.zpl);
    else io.stdout(result.zpl);
    io.stderr(`rendered ${result.labels} of ${result.pageCount} pages as ${result.widthDots}x${result.heightDots} dot labels at ${resolved.dpi} dpi, ${result.zpl.length} bytes of ZPL${out ? ` to ${out}` : ''}\n`);
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
