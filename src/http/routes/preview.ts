// POST /preview/{target}: the print body of POST /print, answered with one page as the printer would print it (image/png); nothing is printed.
import { AppError, DeviceError } from '../../errors';
import { resolveFormat } from '../../filters/document-format';
import type { PrinterLanguage, Render } from '../../filters/filters';
import { renderPreview } from '../../filters/preview';
import type { PrinterRegistry } from '../../printers/registry';
import type { PrinterRecord } from '../../schemas/printer';
import type { DocumentSpec } from '../../spooler/document';
import { parsePrintRequest, PrintBodySchema } from '../print-request';
import type { AllowedRoots } from '../../spooler/submission';
import type { Route } from '../route';

/** Collaborators of the preview route: the print path's document loader, renderer and printer languages. */
export interface PreviewRouteDeps {
  registry: PrinterRegistry;
  roots: AllowedRoots;
  loadDocument: (spec: DocumentSpec, data: Buffer | null, signal: AbortSignal) => Promise<Buffer>;
  render: Render;
  languageOf: (printer: PrinterRecord) => PrinterLanguage;
}

/** Device failures that mean "this document cannot be drawn" rather than "the device is busy". */
const UNDRAWABLE = new Set(['RENDER_FAILED', 'UNSUPPORTED_CONTENT', 'FETCH_FAILED', 'IO']);

/** POST /preview/{target}?page=N. */
export function previewRoutes(deps: PreviewRouteDeps): Route[] {
  return [
    {
      method: 'post', path: '/preview/{target}', tag: 'print',
      summary: 'Preview a print: one page rendered for the printer (its dpi, paper and options) by the print path, as a PNG with one pixel per dot; never printed',
      body: PrintBodySchema, rawBody: true, largeField: 'content',
      query: [{ name: 'page', description: 'Page of the document to preview, from 1 (default 1)' }],
      binaryResponse: {
        contentType: 'image/png', description: 'The page as the printer gets it: 1-bit grey, width and height in printer dots',
        headers: [{ name: 'X-Page-Count', description: 'Pages the document has' }],
      },
      responses: { 404: 'Printer not found', 422: 'The device draws no preview of this document or printer (bytes of a printer language, raw data, IPP printers), or the document cannot be read', 503: 'The device is busy' },
      handler: async (req) => {
        const page = pageOf(req.query.get('page'));
        // a tag previews on its first printer: the one a single-printer tag prints on
        const [printer] = deps.registry.resolveTarget(req.params.target);
        const submission = parsePrintRequest(req, deps.roots);
        const preview = await undrawable(async () => {
          const bytes = await deps.loadDocument(submission.document, submission.data, req.signal);
          const input = {
            bytes, format: resolveFormat(submission.document.format, bytes), language: deps.languageOf(printer),
            printer: { dpi: printer.dpi, dither: printer.dither, paperWidth: printer.paperWidth, model: printer.model }, title: submission.title, userName: submission.source ?? 'printproxyd', options: submission.options,
          };
          return renderPreview(deps.render, input, page, req.signal);
        });
        return { message: 'Preview rendered.', bytes: preview.png, contentType: 'image/png', headers: { 'X-Page-Count': String(preview.documentPages), 'Cache-Control': 'no-store' } };
      },
    },
  ];
}

function pageOf(text: string | null): number {
  if (text === null || text === '') return 1;
  if (!/^[1-9]\d{0,5}$/.test(text)) throw new AppError('INVALID_REQUEST', `page must be a whole number from 1, got "${text}"`);
  return Number(text);
}

async function undrawable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DeviceError && UNDRAWABLE.has(err.code)) throw new AppError('NO_PREVIEW', err.message);
    throw err;
  }
}
