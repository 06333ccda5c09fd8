// Readiness (the seed 4.5.1 503 body) shared by every label language: decisions.md's texts and IPP state reasons.
import type { Readiness } from '../schemas/readiness';

/** The human-readable conditions of decisions.md "Pre-flight", one per condition. */
export const READINESS_ERRORS = {
  paused: 'Printer is paused (may need calibration — press the feed button)',
  paperOut: 'Printer is out of paper (load labels and close the head)',
  headOpen: 'Print head is open (close the print head)',
  ribbonOut: 'Ribbon is out (load a new ribbon)',
} as const;

/** The four conditions seed 4.5.1 checks. */
export type ReadinessFlags = Pick<Readiness, 'paperOut' | 'paused' | 'headOpen' | 'ribbonOut'>;

/** Readiness of `flags` with decisions.md's texts in their order, then `extra` conditions; ready when none holds. */
export function readinessOf(flags: ReadinessFlags, extra: readonly string[] = []): Readiness {
  const errors = [
    ...(flags.paused ? [READINESS_ERRORS.paused] : []),
    ...(flags.paperOut ? [READINESS_ERRORS.paperOut] : []),
    ...(flags.headOpen ? [READINESS_ERRORS.headOpen] : []),
    ...(flags.ribbonOut ? [READINESS_ERRORS.ribbonOut] : []),
    ...extra,
  ];
  return { ready: errors.length === 0, ...flags, errors };
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
