// IPP attributes ↔ the API: capabilities, live status, job state, and print options (seed 2.5) → job attributes.
import type { PrinterJobState } from '../schemas/job';
import type { LiveStatus } from '../schemas/printer';
import { parseMediaSize } from '../util/media-size';
import type { Capabilities } from '../schemas/printer';
import { parsePageRanges, type PrintOptions } from '../schemas/print-options';
import { JOB_STATE } from './ipp-constants';
import { TAG, type IppAttribute, type IppValue } from './ipp-wire';

/** Printer attributes by name. */
export type Attributes = Map<string, IppValue[]>;

const strings = (a: Attributes, name: string): string[] => (a.get(name) ?? []).filter((v): v is string => typeof v === 'string');
const first = (a: Attributes, name: string): IppValue | undefined => a.get(name)?.[0];

/** Seed 2.2 capabilities from Get-Printer-Attributes. */
export function capabilitiesOf(a: Attributes): Capabilities {
  const copies = rangeOf(first(a, 'copies-supported'));
  const range = copies ? [copies.lower, copies.upper] : [1, 1];
  return {
    makeAndModel: String(first(a, 'printer-make-and-model') ?? ''),
    colorSupported: first(a, 'color-supported') === true,
    documentFormatsSupported: strings(a, 'document-format-supported'),
    mediaSupported: strings(a, 'media-supported'),
    sidesSupported: strings(a, 'sides-supported'),
    copiesSupported: range as [number, number],
  };
}

/** Reasons that stop printing whatever severity the printer gives them (RFC 8011 5.4.12 keywords). */
const BLOCKING = new Set(['media-empty', 'media-jam', 'media-needed', 'cover-open', 'door-open', 'interlock-open', 'marker-supply-empty', 'toner-empty', 'input-tray-missing', 'output-area-full', 'paused', 'offline']);

/**
 * printer-state (3 idle, 4 processing, 5 stopped) and printer-state-reasons → status and reasons (`none` dropped).
 * `error` when stopped, when a reason has the `-error` suffix, or when a reason blocks printing at any severity.
 */
export function liveStatusOf(a: Attributes): LiveStatus {
  const state = first(a, 'printer-state');
  const reasons = strings(a, 'printer-state-reasons').filter((r) => r !== 'none');
  const blocking = reasons.some((r) => r.endsWith('-error') || BLOCKING.has(r.replace(/-(report|warning|error)$/, '')));
  if (state === 5 || blocking) return { status: 'error', statusReasons: reasons };
  return { status: state === 3 || state === 4 ? 'online' : 'unknown', statusReasons: reasons };
}

/**
 * The one mapping of IPP job-state to the API's job state: pending and pending-held → queued, processing and
 * processing-stopped → printing, completed → completed, canceled and aborted → failed with the printer's
 * job-state-reasons (and job-state-message, when given) in `error`. Null when `state` is not a job-state value.
 */
export function jobStateOf(state: IppValue | undefined, reasons: string[], message = ''): PrinterJobState | null {
  const why = () => `(${reasons.filter((r) => r !== 'none').join(', ') || 'no reason given'})${message.trim() ? `: ${message.trim()}` : ''}`;
  switch (state) {
    case JOB_STATE.pending:
    case JOB_STATE.pendingHeld:
      return { state: 'queued', error: null };
    case JOB_STATE.processing:
    case JOB_STATE.processingStopped:
      return { state: 'printing', error: null };
    case JOB_STATE.completed:
      return { state: 'completed', error: null };
    case JOB_STATE.canceled:
      return { state: 'failed', error: `canceled at the printer ${why()}` };
    case JOB_STATE.aborted:
      return { state: 'failed', error: `aborted by the printer ${why()}` };
    default:
      return null;
  }
}

const ORIENTATION = { portrait: 3, landscape: 4, 'reverse-landscape': 5, 'reverse-portrait': 6 } as const;
const QUALITY = { draft: 3, normal: 4, high: 5 } as const;
const SIDES = { 'one-sided': 'one-sided', 'long-edge': 'two-sided-long-edge', 'short-edge': 'two-sided-short-edge' } as const;
const COLOR = { color: 'color', grayscale: 'monochrome', auto: 'auto' } as const;

/** The job attributes for `options` that the printer lists as supported; the rest are named in `dropped`. */
export function jobAttributesFor(options: PrintOptions, a: Attributes): { attributes: IppAttribute[]; dropped: string[] } {
  const attributes: IppAttribute[] = [];
  const dropped: string[] = [];
  const offer = (option: string, ok: boolean, attribute: () => IppAttribute) => (ok ? attributes.push(attribute()) : dropped.push(option));
  const supports = (name: string, value: string | number) => (a.get(name) ?? []).includes(value);
  if (options.copies !== undefined) offer('copies', copiesOk(options.copies, a), () => ({ tag: TAG.integer, name: 'copies', values: [options.copies!] }));
  if (options.duplex) offer('duplex', supports('sides-supported', SIDES[options.duplex]), () => ({ tag: TAG.keyword, name: 'sides', values: [SIDES[options.duplex!]] }));
  if (options.colorMode) offer('colorMode', supports('print-color-mode-supported', COLOR[options.colorMode]), () => ({ tag: TAG.keyword, name: 'print-color-mode', values: [COLOR[options.colorMode!]] }));
  if (options.pageRange) {
    const ranges = mergedPageRanges(options.pageRange);
    offer('pageRange', first(a, 'page-ranges-supported') === true && ranges.length > 0, () => ({ tag: TAG.rangeOfInteger, name: 'page-ranges', values: ranges }));
  }
  if (options.fitToPage) offer('fitToPage', supports('print-scaling-supported', 'fit'), () => ({ tag: TAG.keyword, name: 'print-scaling', values: ['fit'] }));
  if (options.orientation) offer('orientation', supports('orientation-requested-supported', ORIENTATION[options.orientation]), () => ({ tag: TAG.enum, name: 'orientation-requested', values: [ORIENTATION[options.orientation!]] }));
  if (options.quality) offer('quality', supports('print-quality-supported', QUALITY[options.quality]), () => ({ tag: TAG.enum, name: 'print-quality', values: [QUALITY[options.quality!]] }));
  media(options, a, attributes, dropped);
  return { attributes, dropped };
}

/** `pageRange` as page-ranges values (1-based): sorted, reversed ends swapped, overlapping or adjacent ranges merged (strict printers reject others). */
function mergedPageRanges(spec: string): Array<{ lower: number; upper: number }> {
  const sorted = parsePageRanges(spec)
    .map(([a, b]) => ({ lower: Math.max(1, Math.min(a, b)), upper: Math.max(a, b) }))
    .filter((r) => r.upper >= 1)
    .sort((x, y) => x.lower - y.lower);
  const merged: Array<{ lower: number; upper: number }> = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.lower <= last.upper + 1) last.upper = Math.max(last.upper, range.upper);
    else merged.push({ ...range });
  }
  return merged;
}

function copiesOk(copies: number, a: Attributes): boolean {
  const range = rangeOf(first(a, 'copies-supported'));
  return range !== null && copies >= range.lower && copies <= range.upper;
}

function rangeOf(value: IppValue | undefined): { lower: number; upper: number } | null {
  if (typeof value !== 'object' || value === null || !('lower' in value)) return null;
  const { lower, upper } = value as { lower: unknown; upper: unknown };
  return typeof lower === 'number' && typeof upper === 'number' ? { lower, upper } : null;
}

/** `paperSize` → media; `bin` → media-col.media-source (with media-size when both are given). */
function media(options: PrintOptions, a: Attributes, out: IppAttribute[], dropped: string[]): void {
  const paperOk = options.paperSize !== undefined && strings(a, 'media-supported').includes(options.paperSize);
  const binOk = options.bin !== undefined && strings(a, 'media-source-supported').includes(options.bin);
  if (options.paperSize !== undefined && !paperOk) dropped.push('paperSize');
  if (options.bin !== undefined && !binOk) dropped.push('bin');
  if (!binOk) {
    if (paperOk) out.push({ tag: TAG.keyword, name: 'media', values: [options.paperSize!] });
    return;
  }
  const members: IppAttribute[] = [{ tag: TAG.keyword, name: 'media-source', values: [options.bin!] }];
  const size = paperOk ? parseMediaSize(options.paperSize!) : null;
  if (size) {
    const hundredthsMm = (pt: number) => Math.round((pt / 72) * 2540);
    members.push({
      tag: TAG.begCollection,
      name: 'media-size',
      values: [[
        { tag: TAG.integer, name: 'x-dimension', values: [hundredthsMm(size.widthPt)] },
        { tag: TAG.integer, name: 'y-dimension', values: [hundredthsMm(size.heightPt)] },
      ]],
    });
  }
  out.push({ tag: TAG.begCollection, name: 'media-col', values: [members] });
}
