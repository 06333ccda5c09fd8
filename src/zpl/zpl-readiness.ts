// Readiness (the seed 4.5.1 503 body) and IPP printer-state-reasons from decoded ZPL status replies.
import type { Readiness } from '../schemas/readiness';
import type { HostQueryStatus, HostStatus } from './zpl-status';

/** The human-readable conditions of decisions.md "Pre-flight", one per condition. */
export const READINESS_ERRORS = {
  paused: 'Printer is paused (may need calibration — press the feed button)',
  paperOut: 'Printer is out of paper (load labels and close the head)',
  headOpen: 'Print head is open (close the print head)',
  ribbonOut: 'Ribbon is out (load a new ribbon)',
} as const;

type Flags = Pick<Readiness, 'paperOut' | 'paused' | 'headOpen' | 'ribbonOut'>;

function readiness(flags: Flags, extra: string[] = []): Readiness {
  const errors = [
    ...(flags.paused ? [READINESS_ERRORS.paused] : []),
    ...(flags.paperOut ? [READINESS_ERRORS.paperOut] : []),
    ...(flags.headOpen ? [READINESS_ERRORS.headOpen] : []),
    ...(flags.ribbonOut ? [READINESS_ERRORS.ribbonOut] : []),
    ...extra,
  ];
  return { ready: errors.length === 0, ...flags, errors };
}

/** Readiness from a `~HS` reply: the four checked conditions of seed 4.5.1. */
export function readinessFromHostStatus(hs: HostStatus): Readiness {
  return readiness({ paperOut: hs.paperOut, paused: hs.paused, headOpen: hs.headOpen, ribbonOut: hs.ribbonOut });
}

/** Readiness from a `~HQES` reply; error bits other than media, ribbon and head are one extra condition. */
export function readinessFromHostQuery(hq: HostQueryStatus): Readiness {
  const other = hq.errorBits & ~0x7;
  const extra = other !== 0 ? [`Printer reports error flags 0x${other.toString(16).padStart(8, '0')} (see the printer's display)`] : [];
  return readiness({ paperOut: hq.mediaOut, paused: false, headOpen: hq.headOpen, ribbonOut: hq.ribbonOut }, extra);
}

/** decisions.md mapping to IPP printer-state-reasons keywords, with the IPP severity suffix. */
export function statusReasonsFromReadiness(r: Readiness): string[] {
  return [
    ...(r.paperOut ? ['media-empty-error'] : []),
    ...(r.paused ? ['paused'] : []),
    ...(r.headOpen ? ['cover-open-error'] : []),
    ...(r.ribbonOut ? ['marker-supply-empty-error'] : []),
  ];
}
