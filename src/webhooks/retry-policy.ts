// How long a webhook waits between attempts and how long it keeps trying (events.md: 1 s doubling to 1 h, for 24 h).
import { backoffDelay } from '../util/backoff';

/** Delivery limits, in milliseconds; the daemon's defaults come from cli.ts (PRINTPROXY_WEBHOOK_* env). */
export interface WebhookPolicy {
  /** First retry delay (before jitter). */
  retryBaseMs: number;
  /** Longest retry delay (before jitter). */
  retryCapMs: number;
  /** How long after it was queued a delivery is given up and counted as dropped. */
  retryHorizonMs: number;
  /** How long one attempt may take before it counts as failed. */
  timeoutMs: number;
}

/** Delay before retry number `attempt` (1 = after the first failure): base·2^(attempt−1) capped, then jittered into its upper half. */
export function retryDelay(policy: WebhookPolicy, attempt: number, random: () => number): number {
  return backoffDelay({ baseMs: policy.retryBaseMs, capMs: policy.retryCapMs, jitter: 'upper-half' }, attempt - 1, random);
}
