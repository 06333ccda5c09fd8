// Turns changes of the printer list, printer status and settings into events on the bus (events.md table).
import type { PrinterRegistry } from './registry';
import { printerView } from './printer-view';
import type { StatusCache } from './status-cache';
import type { LiveStatus, PrinterRecord } from '../schemas/printer';
import type { SettingsStore } from '../settings/settings-store';
import type { EventBus } from '../events/event-bus';

/** What the watchers read and where they emit. */
export interface DeviceEventSources {
  registry: PrinterRegistry;
  status: StatusCache;
  settings: SettingsStore;
  bus: EventBus;
}

/** Settings keys never named in `device.settings` (printers have events of their own). */
const NOT_SETTINGS = new Set(['printers', 'printerOverrides', 'version']);

/** Emits printer.added/updated/removed on list changes, device.settings (names only) on settings writes; returns the stop function. */
export function watchDevice(sources: DeviceEventSources): () => void {
  const { registry, status, settings, bus } = sources;
  let printers = snapshot(registry.list());
  let previous = settings.value as unknown as Record<string, unknown>;
  const view = (record: PrinterRecord) => printerView(record, status.fresh(record.path) ?? { status: 'unknown', statusReasons: [] });
  const onPrinters = () => {
    const now = snapshot(registry.list());
    for (const [path, record] of now) {
      const before = printers.get(path);
      if (!before) bus.emit('printer.added', view(record.record));
      else if (before.json !== record.json) bus.emit('printer.updated', view(record.record));
    }
    for (const path of printers.keys()) if (!now.has(path)) bus.emit('printer.removed', { path });
    printers = now;
  };
  const onSettings = () => {
    const current = settings.value as unknown as Record<string, unknown>;
    const changed = Object.keys({ ...previous, ...current }).filter((key) => !NOT_SETTINGS.has(key) && JSON.stringify(previous[key]) !== JSON.stringify(current[key]));
    previous = current;
    if (changed.length > 0) bus.emit('device.settings', { changed });
    onPrinters();
  };
  const stops = [registry.onChange(onPrinters), settings.onChange(onSettings)];
  return () => stops.forEach((stop) => stop());
}

/** The printer.status event of a probe answer that changed. */
export function statusEvent(bus: EventBus): (path: string, live: LiveStatus) => void {
  return (path, live) => bus.emit('printer.status', { path, status: live.status, statusReasons: live.statusReasons });
}

function snapshot(records: PrinterRecord[]): Map<string, { record: PrinterRecord; json: string }> {
  return new Map(records.map((record) => [record.path, { record, json: JSON.stringify(record) }]));
}
