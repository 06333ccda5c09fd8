// A shared printer's IPP printer-state and reasons, from its live status and its runtime's hold; with when they last changed.
import type { LiveStatus } from '../schemas/printer';
import type { Readiness } from '../schemas/readiness';
import { statusReasonsFromReadiness } from '../languages/readiness';
import { PRINTER_STATE } from '../ipp/ipp-constants';
import type { IppPrinterState } from './printer-attributes';

/** Remembers, per printer, when its IPP state last changed (printer-state-change-time). */
export class PrinterStateClock {
  private readonly last = new Map<string, { key: string; at: Date }>();

  constructor(private readonly startedAt: Date) {}

  /**
   * The IPP state of the printer at `path`: stopped with the pre-flight's reasons while its queue is held, stopped
   * with its reasons when in error or offline, processing while it has jobs, else idle.
   */
  state(path: string, live: LiveStatus, held: Readiness | null, busy: boolean, now: Date): IppPrinterState {
    const { state, reasons, message } = held
      ? { state: PRINTER_STATE.stopped, reasons: statusReasonsFromReadiness(held), message: held.errors.join('; ') }
      : fromLive(live, busy);
    const key = `${state} ${reasons.join(',')}`;
    const seen = this.last.get(path);
    const changedAt = seen?.key === key ? seen.at : seen ? now : this.startedAt;
    this.last.set(path, { key, at: changedAt });
    return { state, reasons: reasons.length > 0 ? reasons : ['none'], message, changedAt };
  }
}

function fromLive(live: LiveStatus, busy: boolean): { state: number; reasons: string[]; message: string } {
  switch (live.status) {
    case 'error':
      return { state: PRINTER_STATE.stopped, reasons: live.statusReasons.length > 0 ? live.statusReasons : ['other-error'], message: 'The printer reports an error.' };
    case 'offline':
      return { state: PRINTER_STATE.stopped, reasons: ['offline-report'], message: 'The printer does not answer.' };
    case 'online':
    case 'unknown':
      return { state: busy ? PRINTER_STATE.processing : PRINTER_STATE.idle, reasons: live.statusReasons, message: busy ? 'Printing.' : 'Ready.' };
  }
}
