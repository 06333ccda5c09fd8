// Reading a decoded IPP request: its groups, single values by syntax, and job template attributes as print options.
import { GROUP, TAG, type IppCollection, type IppRequest, type IppRequestAttribute, type IppValue } from '../ipp/ipp-wire';
import type { PrintOptions } from '../schemas/print-options';
import { IppFault } from '../errors';
import { IPP_STATUS } from '../ipp/ipp-constants';
import { paperSizeOf } from './share-media';

/** The attributes of a request's first group with `tag`, in wire order (empty when absent). */
export function groupOf(request: IppRequest, tag: number): IppRequestAttribute[] {
  return request.groups.find((g) => g.tag === tag)?.attributes ?? [];
}

/** The first value of `name` in `attributes`, or undefined. */
export function valueOf(attributes: IppRequestAttribute[], name: string): IppValue | undefined {
  return attributes.find((a) => a.name === name)?.values[0];
}

/** Every value of `name` as strings (requested-attributes, which-jobs), or undefined when absent. */
export function stringsOf(attributes: IppRequestAttribute[], name: string): string[] | undefined {
  return attributes.find((a) => a.name === name)?.values.map(String);
}

/** An integer operation attribute (job-id); a value of another syntax is a bad request. */
export function integerOf(attributes: IppRequestAttribute[], name: string): number | undefined {
  const attribute = attributes.find((a) => a.name === name);
  if (!attribute) return undefined;
  const value = attribute.values[0];
  if (attribute.tag !== TAG.integer || typeof value !== 'number') throw new IppFault(IPP_STATUS.badRequest, `${name} must be an integer`);
  return value;
}

/** A boolean operation attribute (last-document, my-jobs); a value of another syntax is a bad request. */
export function booleanOf(attributes: IppRequestAttribute[], name: string): boolean | undefined {
  const attribute = attributes.find((a) => a.name === name);
  if (!attribute) return undefined;
  if (attribute.tag !== TAG.boolean) throw new IppFault(IPP_STATUS.badRequest, `${name} must be a boolean`);
  return attribute.values[0] === true;
}

const ORIENTATIONS: Record<number, PrintOptions['orientation']> = { 3: 'portrait', 4: 'landscape', 5: 'reverse-landscape', 6: 'reverse-portrait' };
const QUALITIES: Record<number, PrintOptions['quality']> = { 3: 'draft', 4: 'normal', 5: 'high' };

/**
 * The print options of a request's job template attributes (copies, media, media-col, orientation-requested,
 * page-ranges, print-quality). Values the device cannot use are ignored, as for the API (seed 2.5).
 */
export function optionsOf(request: IppRequest): PrintOptions {
  const job = groupOf(request, GROUP.job);
  const options: PrintOptions = {};
  const copies = valueOf(job, 'copies');
  if (typeof copies === 'number' && copies >= 1 && copies <= 9999) options.copies = copies;
  const paperSize = paperSizeOf(stringOrNull(valueOf(job, 'media')), mediaColSize(valueOf(job, 'media-col')));
  if (paperSize) options.paperSize = paperSize;
  const orientation = ORIENTATIONS[Number(valueOf(job, 'orientation-requested'))];
  if (orientation) options.orientation = orientation;
  const quality = QUALITIES[Number(valueOf(job, 'print-quality'))];
  if (quality) options.quality = quality;
  const ranges = job.find((a) => a.name === 'page-ranges')?.values.filter(isRange).filter((r) => r.lower >= 1 && r.upper >= r.lower);
  if (ranges && ranges.length > 0) options.pageRange = ranges.map((r) => `${r.lower}-${r.upper}`).join(',');
  return options;
}

function stringOrNull(value: IppValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

function isRange(value: IppValue): value is { lower: number; upper: number } {
  return typeof value === 'object' && value !== null && 'lower' in value;
}

function mediaColSize(value: IppValue | undefined): { x: number; y: number } | null {
  const size = (value as IppCollection | undefined)?.['media-size']?.[0] as IppCollection | undefined;
  const x = size?.['x-dimension']?.[0];
  const y = size?.['y-dimension']?.[0];
  return typeof x === 'number' && typeof y === 'number' ? { x, y } : null;
}
