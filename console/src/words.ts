// Values from the API in words: printer states and reasons (the pre-flight texts), kinds, sizes, times, slots and update phases.
import type { LanguageInfo } from '../../src/schemas/language';
import type { Printer } from '../../src/schemas/printer';
import type { SlotState, SystemSlot, UpdatePhase } from '../../src/schemas/system';

const REASONS: Record<string, string> = {
  'media-empty-error': 'Printer is out of paper (load labels and close the head)',
  'media-empty': 'Printer is out of paper (load labels and close the head)',
  paused: 'Printer is paused (may need calibration — press the feed button)',
  'cover-open-error': 'Print head is open (close the print head)',
  'marker-supply-empty-error': 'Ribbon is out (load a new ribbon)',
  'offline-report': 'Printer is offline or not selected',
  'other-error': 'The printer reports an error',
  'media-jam-error': 'Paper is jammed',
  'toner-low-warning': 'Toner is low',
  'toner-empty-error': 'Toner is empty',
  'media-low-warning': 'Paper is running low',
};

/** A printer-state-reason keyword as a sentence; unknown keywords keep their words. */
export function reasonText(reason: string): string {
  if (REASONS[reason]) return REASONS[reason];
  const words = reason.replace(/-(error|warning|report)$/, '').replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Status word of a printer. */
export function statusText(status: Printer['status']): string {
  return { online: 'Online', offline: 'Offline', error: 'Needs attention', unknown: 'Unknown' }[status];
}

const KIND_TEXT: Record<LanguageInfo['kind'], string> = { label: 'Label', receipt: 'Receipt', document: 'Document' };

/** What kind of printer it is, from its language (as the device names it, `languages` from GET /languages) and connection. */
export function kindText(printer: Printer, languages: LanguageInfo[]): string {
  const language = languages.find((l) => l.content === printer.content);
  const what = language ? `${KIND_TEXT[language.kind]} (${language.displayName})` : printer.content;
  const how = printer.connection.type === 'usb' ? 'USB' : (printer.connection.protocol ?? 'network').toUpperCase();
  return `${what}, ${how}`;
}

/** A printer's name for lists: its model, else its path. */
export function printerName(printer: Printer): string {
  return printer.model || printer.path;
}

/** Bytes as MiB or GiB. */
export function bytesText(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}

/** Seconds as days, hours and minutes. */
export function durationText(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return [d ? `${d} d` : '', h ? `${h} h` : '', `${m} min`].filter(Boolean).join(' ');
}

/** An ISO time as the browser's local date and time. */
export function timeText(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** Each update phase in words, and whether it is final (nothing more happens to that update; another may start). */
const PHASES: Record<UpdatePhase, { text: string; final: boolean }> = {
  downloading: { text: 'Receiving the bundle', final: false },
  verifying: { text: 'Checking the bundle', final: false },
  installing: { text: 'Installing into the other slot', final: false },
  'awaiting-reboot': { text: 'Installed: waiting for the reboot', final: false },
  rebooting: { text: 'Rebooting into the new slot', final: false },
  succeeded: { text: 'Succeeded: the new slot runs and is marked good', final: true },
  'rolled-back': { text: 'Rolled back: the previous slot runs again', final: true },
  failed: { text: 'Failed', final: true },
};

/** An update phase as a sentence. */
export function phaseText(phase: UpdatePhase): string {
  return PHASES[phase].text;
}

/** Whether an update in `phase` has ended (the device then takes another). */
export function phaseIsFinal(phase: UpdatePhase): boolean {
  return PHASES[phase].final;
}

/** A slot's RAUC state in words. */
export function slotStateText(state: SlotState): string {
  return { booted: 'Booted (running now)', active: 'Active', inactive: 'Not booted' }[state];
}

/** A slot's boot-loader mark in words. */
export function slotGoodText(good: SystemSlot['good']): string {
  return good === null ? 'Not marked' : good ? 'Good' : 'Bad';
}
