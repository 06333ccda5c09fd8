// Readiness (the seed 4.5.1 503 body) from decoded ZPL status replies.
import type { Readiness } from '../../schemas/readiness';
import { readinessOf } from '../readiness';
import type { HostQueryStatus, HostStatus } from './zpl-status';

/** Readiness from a `~HS` reply: the four checked conditions of seed 4.5.1. */
export function readinessFromHostStatus(hs: HostStatus): Readiness {
  return readinessOf({ paperOut: hs.paperOut, paused: hs.paused, headOpen: hs.headOpen, ribbonOut: hs.ribbonOut });
}

/** Readiness from a `~HQES` reply; error bits other than media, ribbon and head are one extra condition. */
export function readinessFromHostQuery(hq: HostQueryStatus): Readiness {
  const other = hq.errorBits & ~0x7;
  const extra = other !== 0 ? [`Printer reports error flags 0x${other.toString(16).padStart(8, '0')} (see the printer's display)`] : [];
  return readinessOf({ paperOut: hq.mediaOut, paused: false, headOpen: hq.headOpen, ribbonOut: hq.ribbonOut }, extra);
}
