// Which events a subscriber (a webhook, a WebSocket client) wants: `types` (names or `*`-suffix globs) and `printers` (paths).
import type { DeviceEvent } from './event-bus';
import { EVENT_TYPE_NAMES } from '../schemas/webhook';

/** A webhook's filters; null means every type or every printer. */
export interface EventFilter {
  types: string[] | null;
  printers: string[] | null;
}

/** True when `type` is `pattern`, or starts with what precedes a trailing `*`. */
export function typeMatches(pattern: string, type: string): boolean {
  return pattern.endsWith('*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern;
}

/** The first pattern that matches no event type the bus emits (a typo), or undefined when each matches one. */
export function patternMatchingNothing(patterns: string[]): string | undefined {
  return patterns.find((pattern) => !EVENT_TYPE_NAMES.some((type) => typeMatches(pattern, type)));
}

/** The printer path an event is about (job.state `printer`, printer.* `path`, job.printed `printerPath`); null when none. */
export function printerOf(event: DeviceEvent): string | null {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  switch (event.type) {
    case 'job.state':
      return text(data.printer);
    case 'job.printed':
      return text(data.printerPath);
    case 'printer.status':
    case 'printer.added':
    case 'printer.updated':
    case 'printer.removed':
      return text(data.path);
    case 'device.settings':
    case 'system.update':
      return null;
    default:
      return exhaustive(event.type);
  }
}

/** True when `filter` lets `event` through; an event about no printer passes any `printers` filter. */
export function wants(filter: EventFilter, event: DeviceEvent): boolean {
  if (filter.types && !filter.types.some((pattern) => typeMatches(pattern, event.type))) return false;
  if (!filter.printers) return true;
  const printer = printerOf(event);
  return printer === null || filter.printers.includes(printer);
}

function exhaustive(type: never): null {
  void type;
  return null;
}
