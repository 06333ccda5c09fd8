// Turns registry records into the API's printer objects (seed 2.2), with live status.
import { NOT_SHARED, type Printer } from '../schemas/printer';
import type { LiveStatus, PrinterRecord } from '../schemas/printer';

/** The API printer object of a record and its live status. */
export function printerView(record: PrinterRecord, live: LiveStatus): Printer {
  const view: Printer = {
    id: record.id,
    type: 'printer',
    path: record.path,
    connection: record.connection,
    content: record.content,
    discovered: record.discovered,
    status: live.status,
    statusReasons: live.statusReasons,
    tags: record.tags,
    share: record.share ?? NOT_SHARED,
  };
  if (record.model !== undefined) view.model = record.model;
  if (record.supportedFormats !== undefined) view.supportedFormats = record.supportedFormats;
  if (record.localAddress !== undefined) view.localAddress = record.localAddress;
  if (record.capabilities !== undefined) view.capabilities = record.capabilities;
  if (record.dpi !== undefined) view.dpi = record.dpi;
  if (record.dither !== undefined) view.dither = record.dither;
  if (record.paperWidth !== undefined) view.paperWidth = record.paperWidth;
  return view;
}

/** The short printer form listed in GET /settings (seed 2.7). */
export function printerSettingsView(record: PrinterRecord): Pick<Printer, 'id' | 'type' | 'path' | 'connection' | 'model' | 'content' | 'discovered'> {
  return {
    id: record.id,
    type: 'printer',
    path: record.path,
    connection: record.connection,
    ...(record.model !== undefined ? { model: record.model } : {}),
    content: record.content,
    discovered: record.discovered,
  };
}
