// Seed 4.5.1 pre-flight over any Transport: ~HS; on failure ^XZ~JA and ~HS once more; then ~HQES; else attempt.
import type { PreflightOutcome, Readiness } from '../../schemas/readiness';
import type { Transport } from '../../transports/transport';
import { readinessFromHostQuery, readinessFromHostStatus } from './zpl-readiness';
import {
  HOST_QUERY_ERRORS_COMMAND,
  HOST_STATUS_COMMAND,
  RESET_COMMAND,
  isHostQueryComplete,
  isHostStatusComplete,
  parseHostQueryStatus,
  parseHostStatus,
} from './zpl-status';

/** Asks `~HS` once; the readiness, or null when the printer is silent, garbled or unreachable. */
export async function queryReadiness(transport: Transport, timeoutMs: number): Promise<Readiness | null> {
  try {
    const reply = await transport.query(HOST_STATUS_COMMAND, isHostStatusComplete, timeoutMs);
    return reply ? readinessFromHostStatus(parseHostStatus(reply)) : null;
  } catch {
    return null;
  }
}

async function queryErrors(transport: Transport, timeoutMs: number): Promise<Readiness | null> {
  try {
    const reply = await transport.query(HOST_QUERY_ERRORS_COMMAND, isHostQueryComplete, timeoutMs);
    return reply ? readinessFromHostQuery(parseHostQueryStatus(reply)) : null;
  } catch {
    return null;
  }
}

/** Runs the pre-flight; `silent` means the job is attempted anyway and ordinary error handling reports failures. */
export async function zplPreflight(transport: Transport, queryTimeoutMs: number): Promise<PreflightOutcome> {
  const first = await queryReadiness(transport, queryTimeoutMs);
  if (first) return outcome(first);
  await transport.send(RESET_COMMAND).catch(() => undefined);
  const retry = await queryReadiness(transport, queryTimeoutMs);
  if (retry) return outcome(retry);
  const errors = await queryErrors(transport, queryTimeoutMs);
  if (errors && !errors.ready) return { kind: 'not-ready', readiness: errors };
  return { kind: 'silent' };
}

function outcome(readiness: Readiness): PreflightOutcome {
  return readiness.ready ? { kind: 'ready' } : { kind: 'not-ready', readiness };
}
