// A raw-port job whose connection the port took is not lost to a spooler that is full for a moment: it waits for room.
import { AppError } from '../errors';
import { sleep } from '../util/sleep';

/** How often a job refused as busy is offered again, in ms. */
const RETRY_MS = 250;

/** True for the refusals that pass as jobs end: the queue's job count or the spool's byte limit reached. */
function busy(err: unknown): boolean {
  return err instanceof AppError && (err.code === 'QUEUE_FULL' || err.code === 'SPOOL_FULL');
}

/** Runs `submit` until it resolves; a busy refusal is tried again every 250 ms for up to `waitMs`, then rejects as the last refusal did. */
export async function submitWhenRoom(submit: () => Promise<void>, waitMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await submit();
      return;
    } catch (err) {
      if (!busy(err) || Date.now() + RETRY_MS > deadline || signal?.aborted) throw err;
      await sleep(RETRY_MS, signal);
    }
  }
}
