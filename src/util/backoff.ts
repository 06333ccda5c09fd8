// The one exponential backoff: the fleet's reconnects and the webhooks' retries wait by it, each with its own jitter.

/** How a delay spreads below its ceiling: `full`, anywhere in [0, ceiling); `upper-half`, in [ceiling / 2, ceiling]. */
export type Jitter = 'full' | 'upper-half';

/** A backoff: the first ceiling and the longest, in ms, and the jitter. */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  jitter: Jitter;
}

/** The wait before retry `attempt` (0: the first), ms: the ceiling base·2^attempt, at most `capMs`, jittered with `random` in [0, 1). */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(Math.max(0, attempt), 60));
  return policy.jitter === 'full' ? Math.floor(random() * ceiling) : Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
