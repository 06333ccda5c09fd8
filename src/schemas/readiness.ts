// Seed 4.5.1 readiness: the 503 body of a label printer that is not ready, and the outcome of a pre-flight check.
import { Type, type Static } from '@sinclair/typebox';

/** Seed 4.5.1 readiness (the 503 `content`). */
export const ReadinessSchema = Type.Object({
  ready: Type.Boolean(),
  paperOut: Type.Boolean(),
  paused: Type.Boolean(),
  headOpen: Type.Boolean(),
  ribbonOut: Type.Boolean(),
  errors: Type.Array(Type.String()),
});
/** A printer's readiness. */
export type Readiness = Static<typeof ReadinessSchema>;

/** Outcome of a pre-flight check: ready, not ready (with why), or no answer (the job is attempted). */
export type PreflightOutcome = { kind: 'ready' } | { kind: 'not-ready'; readiness: Readiness } | { kind: 'silent' };
