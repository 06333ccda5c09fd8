// One webhook's sender: takes the head of its outbox, posts it until a 2xx or the horizon, then the next (id order).
import type { Logger } from '../log';
import type { LastDelivery } from '../schemas/webhook';
import { sleep } from '../util/sleep';
import type { Deliver, DeliveryTarget } from './deliver';
import type { Delivery, Outbox } from './outbox';
import { retryDelay, type WebhookPolicy } from './retry-policy';
import { maskUrl } from '../spooler/fetch-document';
import type { WebhookEvent } from './webhook-event';

/** What a worker needs: its webhook's target and outbox, the sender, the retry policy, the clock and jitter source. */
export interface DeliveryWorkerDeps {
  target: DeliveryTarget;
  outbox: Outbox;
  deliver: Deliver;
  policy: WebhookPolicy;
  now: () => number;
  /** A number in [0, 1) for the jitter. */
  random: () => number;
  logger: Logger;
}

/**
 * Delivers one webhook's outbox in order: the head blocks the queue until a 2xx, retried with backoff; past the retry
 * horizon it is dropped (counted). Each worker waits on its own receiver only, so a silent receiver delays no other webhook.
 */
export class DeliveryWorker {
  /** The latest attempt's outcome (a ping's included), null before the first since start. */
  lastDelivery: LastDelivery | null = null;
  private readonly stopping = new AbortController();
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  /** Deliveries waiting (including one being attempted). */
  get pending(): number {
    return this.deps.outbox.pending;
  }

  /** Deliveries given up. */
  get dropped(): number {
    return this.deps.outbox.dropped;
  }

  /** Starts sending what the outbox holds and whatever is enqueued later. */
  start(): void {
    this.running = this.loop().catch((err: unknown) => this.deps.logger.error('webhook delivery stopped', { url: maskUrl(this.deps.target.url), reason: (err as Error).message }));
  }

  /** Queues `event` under `deliveryId` in the outbox (on disk before it is sent); resolves with whether it was taken. */
  async enqueue(deliveryId: string, event: WebhookEvent): Promise<boolean> {
    const stored = await this.deps.outbox.add(deliveryId, event, this.deps.now());
    if (stored) this.wake();
    return stored;
  }

  /** Sends `event` once, outside the queue (a ping), and records the outcome as the last delivery. */
  async sendOnce(deliveryId: string, event: WebhookEvent): Promise<LastDelivery> {
    const outcome = await this.deps.deliver(this.deps.target, deliveryId, event, this.stopping.signal);
    this.lastDelivery = outcome;
    return outcome;
  }

  /** Stops: an attempt under way is abandoned (its delivery stays pending) and the outbox is closed. */
  async close(): Promise<void> {
    this.stopping.abort();
    this.wake();
    await this.running;
    await this.deps.outbox.close();
  }

  /** Stops and deletes the outbox (the webhook was deleted). */
  async remove(): Promise<void> {
    await this.close();
    await this.deps.outbox.remove();
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const delivery = await this.next(failures);
      if (!delivery) return;
      if (this.deps.now() >= this.deadlineOf(delivery)) {
        this.deps.logger.warn('webhook delivery given up after the retry horizon', { url: maskUrl(this.deps.target.url), deliveryId: delivery.deliveryId });
        await this.deps.outbox.drop(delivery.seq);
        failures = 0;
        continue;
      }
      const outcome = await this.deps.deliver(this.deps.target, delivery.deliveryId, delivery.event, this.stopping.signal);
      if (this.stopped) return;
      this.lastDelivery = outcome;
      if (outcome.error === null) {
        await this.deps.outbox.done(delivery.seq);
        failures = 0;
        continue;
      }
      failures += 1;
      await sleep(Math.min(retryDelay(this.deps.policy, failures, this.deps.random), Math.max(0, this.deadlineOf(delivery) - this.deps.now())), this.stopping.signal);
    }
  }

  /** The head of the outbox, waiting while it is empty; null once stopped. A head that cannot be read is retried with backoff. */
  private async next(failures: number): Promise<Delivery | null> {
    let readFailures = failures;
    while (!this.stopped) {
      this.woken = false;
      try {
        const head = await this.deps.outbox.first();
        if (head) return head;
      } catch (err) {
        readFailures += 1;
        this.deps.logger.warn('webhook outbox could not be read', { url: maskUrl(this.deps.target.url), reason: (err as Error).message });
        await sleep(retryDelay(this.deps.policy, readFailures, this.deps.random), this.stopping.signal);
        continue;
      }
      if (!this.woken && !this.stopped) await new Promise<void>((resolve) => (this.wakeUp = resolve));
      this.wakeUp = null;
    }
    return null;
  }

  private deadlineOf(delivery: Delivery): number {
    return delivery.firstAt + this.deps.policy.retryHorizonMs;
  }
}
