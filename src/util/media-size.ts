// Media size names → size in points: PWG self-describing names (na_index-4x6_4x6in, iso_a6_105x148mm) and `4x6`, `4x6in`, `100x150mm`.

/** A media size in points (1/72 inch). */
export interface MediaSizePt {
  widthPt: number;
  heightPt: number;
}

const PT_PER_UNIT = { in: 72, mm: 72 / 25.4 } as const;
/** PWG 5101.1 self-describing name: class_name_WxH(in|mm); the name part may hold letters, digits, '-' and '.'. */
const PWG_NAME = /^[a-z0-9]+_[a-z0-9.\-]*_(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(in|mm)$/;
/** Bare dimensions, inches unless `mm` follows: `4x6`, `4x6in`, `100x150mm`, `2.25 x 1.25 in`. */
const BARE_SIZE = /^(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(in|mm)?$/;
/** Largest side accepted, in points (200 in), so nonsense does not reach the renderer. */
const MAX_SIDE_PT = 14400;

/** Size in points of a media name, or null when the name is not a size this parser knows. */
export function parseMediaSize(name: string): MediaSizePt | null {
  const text = name.trim().toLowerCase();
  const m = PWG_NAME.exec(text) ?? BARE_SIZE.exec(text);
  if (!m) return null;
  const perUnit = PT_PER_UNIT[(m[3] ?? 'in') as keyof typeof PT_PER_UNIT];
  const widthPt = Number(m[1]) * perUnit;
  const heightPt = Number(m[2]) * perUnit;
  if (!(widthPt > 0 && heightPt > 0) || widthPt > MAX_SIDE_PT || heightPt > MAX_SIDE_PT) return null;
  return { widthPt, heightPt };
}
