// Printer routes: list, get (path or URI), add, patch, delete, discover (seed 4.2–4.4, decisions.md).
import { Type } from '@sinclair/typebox';
import { CreatePrinterBodySchema, PatchPrinterBodySchema, PrinterSchema, type CreatePrinterBody, type PatchPrinterBody } from '../../schemas/printer';
import { printerView } from '../../printers/printer-view';
import type { PrinterRegistry } from '../../printers/registry';
import type { LiveStatus, PrinterRecord } from '../../schemas/printer';
import type { StatusCache } from '../../printers/status-cache';
import type { Route } from '../route';

/** Collaborators of the printer routes. */
export interface PrinterRouteDeps {
  registry: PrinterRegistry;
  status: StatusCache;
}

/** The printer and discovery routes. */
export function printerRoutes(deps: PrinterRouteDeps): Route[] {
  // the status probe may refresh what the printer reports about itself, so the record is read after it
  const view = async (record: PrinterRecord) => {
    const live = deps.status.fresh(record.path) ?? (await deps.status.get(record.path));
    return printerView(deps.registry.find(record.path) ?? record, live);
  };
  const views = (records: PrinterRecord[]) => Promise.all(records.map(view));
  // the last list answered from fresh statuses, serialized once: reused while the registry's list (a new array on
  // every change) and each printer's cached status (a new object on every probe) are the same objects
  let served: { records: PrinterRecord[]; live: LiveStatus[]; json: string } | null = null;
  /** Answers from the status cache without waiting when every status is fresh (the common polling case). */
  const listReply = (records: PrinterRecord[], message: string) => {
    const live = records.map((r) => deps.status.fresh(r.path));
    if (!live.every((l): l is LiveStatus => l !== undefined)) return views(records).then((content) => ({ message, content }));
    if (served?.records !== records || live.some((l, i) => l !== served!.live[i])) {
      served = { records, live, json: JSON.stringify(records.map((r, i) => printerView(r, live[i]))) };
    }
    return { message, contentJson: served.json };
  };
  const notFound = { 404: 'Printer not found' };
  const notStored = { 507: 'Device cannot store the change' };
  return [
    {
      method: 'get', path: '/printers', tag: 'printers', summary: 'List known printers with live status',
      response: Type.Array(PrinterSchema),
      handler: () => listReply(deps.registry.list(), 'Successfully obtained printers.'),
    },
    {
      method: 'post', path: '/printers', tag: 'printers', summary: 'Add a printer manually',
      body: CreatePrinterBodySchema, response: PrinterSchema, responses: { 201: 'Printer added', 409: 'Printer already exists', 507: 'Device cannot store the change' },
      handler: async (req) => ({ status: 201, message: 'Printer added.', content: await view(await deps.registry.add(req.body as CreatePrinterBody)) }),
    },
    {
      method: 'get', path: '/printers/{path}', tag: 'printers', summary: 'One printer by path or URL-encoded URI',
      response: PrinterSchema, responses: notFound,
      handler: async (req) => ({ message: 'Printer retrieved.', content: await view(deps.registry.get(req.params.path)) }),
    },
    {
      method: 'patch', path: '/printers/{path}', tag: 'printers', summary: 'Change tags, model or content of a printer',
      body: PatchPrinterBodySchema, response: PrinterSchema, responses: { ...notFound, ...notStored },
      handler: async (req) => ({ message: 'Printer updated.', content: await view(await deps.registry.patch(req.params.path, req.body as PatchPrinterBody)) }),
    },
    {
      method: 'delete', path: '/printers/{path}', tag: 'printers', summary: 'Remove a manual printer (or forget the overrides of a discovered one)',
      response: PrinterSchema, responses: { ...notFound, ...notStored },
      handler: async (req) => {
        const removed = await deps.registry.remove(req.params.path);
        deps.status.invalidate(removed.path);
        return { message: 'Printer removed.', content: printerView(removed, { status: 'unknown', statusReasons: [] }) };
      },
    },
    {
      method: 'get', path: '/discover', tag: 'printers', summary: 'Scan USB and the network for printers; GET /printers then lists them (seed 4.4)',
      response: Type.Null(),
      handler: async () => {
        await deps.registry.discover();
        return { message: 'Successfully discovered printers.', content: null };
      },
    },
  ];
}
