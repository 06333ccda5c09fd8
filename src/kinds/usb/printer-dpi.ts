// A label printer's resolution as its USB IEEE 1284 model string states it (Zebra: `ZTC ZD421-203dpi ZPL`, `ZT410-300dpi`).
import type { DiscoveredPrinter, Dpi } from '../../schemas/printer';

/** Nominal resolutions printers name (Zebra says 200 for its 8 dots/mm heads) → the resolution used to render. */
const NOMINAL_DPI: Record<number, Dpi> = { 150: 152, 152: 152, 153: 152, 200: 203, 203: 203, 300: 300, 600: 600 };
/** Dots per millimetre → dpi. */
const DPMM: Record<number, Dpi> = { 6: 152, 8: 203, 12: 300, 24: 600 };

/** The resolution a model string states (`203dpi`, `300 dpi`, `12dpmm`), or undefined when it states none we know. */
export function dpiFromModel(model: string | undefined): Dpi | undefined {
  if (!model) return undefined;
  const dpi = /(?:^|[^0-9])(\d{3})\s*dpi\b/i.exec(model);
  if (dpi) return NOMINAL_DPI[Number(dpi[1])];
  const dpmm = /(?:^|[^0-9])(\d{1,2})\s*dpmm\b/i.exec(model);
  return dpmm ? DPMM[Number(dpmm[1])] : undefined;
}

/** The resolution a discovered USB printer reports in its 1284 model string; undefined for other printers. */
export function reportedDpi(printer: Pick<DiscoveredPrinter, 'connection' | 'model'>): Dpi | undefined {
  return printer.connection.type === 'usb' ? dpiFromModel(printer.model) : undefined;
}
