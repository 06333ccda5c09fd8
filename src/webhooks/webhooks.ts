// The webhook channel: registered webhooks, one outbox and sender each, fed from the event bus through their filters.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../errors';
import type { DeviceEvent, EventBus } from '../events/event-bus';
import type { Logger } from '../log';
import { MAX_WEBHOOKS, SECRET_MASK, type PingResult, type StoredWebhook, type WebhookBody, type WebhookView } from '../schemas/webhook';
import { isTemporary, removeLeftovers } from '../settings/atomic-file';
import { deliverer } from './deliver';
import { DeliveryWorker } from './delivery-worker';
import { patternMatchingNothing, wants } from '../events/event-filter';
import type { HttpPost } from './http-post';
import { Outbox, type OutboxBounds } from './outbox';
import type { WebhookPolicy } from './retry-policy';
import { WebhookList } from './webhook-list';
import { pingEvent } from './webhook-event';
import { isIP } from 'node:net';
import { refusedAddress } from '../spooler/fetch-address';
import { maskUrl } from '../spooler/fetch-document';

/** What the webhook channel is built from. */
export interface WebhooksDeps {
  /** Folder of webhooks.json and the outboxes (`<id>.outbox`). */
  dir: string;
  /** This run's id: deliveries are `<bootId>.<event id>`. */
  bootId: string;
  bus: Pick<EventBus, 'subscribe'>;
  policy: WebhookPolicy;
  bounds: OutboxBounds;
  post: HttpPost;
  now: () => number;
  /** A number in [0, 1) for the retry jitter. */
  random: () => number;
  logger: Logger;
}

const OUTBOX = '.outbox';

/** Registered webhooks and their delivery; every change is stored before it is made (507 otherwise). */
export class Webhooks {
  private readonly workers = new Map<string, DeliveryWorker>();
  private unsubscribe: () => void = () => undefined;
  private pings = 0;

  private constructor(private readonly deps: WebhooksDeps, private readonly stored: WebhookList) {}

  /** Loads the webhooks and their outboxes (sweeping what a crash left), starts delivering, and subscribes to the bus. */
  static async open(deps: WebhooksDeps): Promise<Webhooks> {
    const webhooks = new Webhooks(deps, new WebhookList(join(deps.dir, 'webhooks.json'), deps.logger));
    if (makeFolder(deps.dir, deps.logger)) {
      const swept = removeLeftovers(deps.dir, isTemporary);
      if (swept.length > 0) deps.logger.warn('webhooks: temporaries of interrupted writes removed', { files: swept });
      webhooks.removeOrphanOutboxes();
    }
    for (const hook of webhooks.stored.value) webhooks.startWorker(hook, await webhooks.openOutbox(hook.id));
    webhooks.unsubscribe = deps.bus.subscribe((event) => webhooks.onEvent(event));
    return webhooks;
  }

  /** Every webhook, secrets masked. */
  list(): WebhookView[] {
    return this.stored.value.map((hook) => this.view(hook, SECRET_MASK));
  }

  /** One webhook, secret masked; WEBHOOK_NOT_FOUND when unknown. */
  get(id: string): WebhookView {
    return this.view(this.find(id), SECRET_MASK);
  }

  /** Registers a webhook (secret generated when absent) and answers it with the secret in clear, the only time it is shown. */
  async create(body: WebhookBody): Promise<WebhookView> {
    checkUrl(body.url);
    const typo = body.types ? patternMatchingNothing(body.types) : undefined;
    if (typo !== undefined) throw new AppError('INVALID_REQUEST', `types: "${typo}" matches no event type`);
    const hook: StoredWebhook = {
      id: randomUUID(),
      url: body.url,
      types: body.types ?? null,
      printers: body.printers ?? null,
      secret: body.secret ?? randomBytes(32).toString('base64url'),
      createdAt: new Date(this.deps.now()).toISOString(),
    };
    // the folder may be missing since a start on a full or read-only partition; without it the write below answers 507
    makeFolder(this.deps.dir, this.deps.logger);
    const outbox = await this.openOutbox(hook.id);
    try {
      await this.stored.update((draft) => {
        if (draft.length >= MAX_WEBHOOKS) throw new AppError('INVALID_REQUEST', `at most ${MAX_WEBHOOKS} webhooks; delete one first`);
        draft.push(hook);
      });
    } catch (err) {
      await outbox.remove();
      throw err;
    }
    this.startWorker(hook, outbox);
    return this.view(hook, hook.secret);
  }

  /** Deletes a webhook and its pending deliveries; answers it as it was (secret masked). */
  async remove(id: string): Promise<WebhookView> {
    const view = this.get(id);
    await this.stored.update((draft) => {
      const index = draft.findIndex((hook) => hook.id === id);
      if (index === -1) throw notFound(id);
      draft.splice(index, 1);
    });
    const worker = this.workers.get(id);
    this.workers.delete(id);
    await worker?.remove();
    return view;
  }

  /** Sends a `ping` event to one webhook now, outside its queue and without retries; answers what the receiver said. */
  async ping(id: string): Promise<PingResult> {
    this.find(id);
    this.pings += 1;
    const deliveryId = `${this.deps.bootId}.ping-${this.pings}`;
    const outcome = await this.worker(id).sendOnce(deliveryId, pingEvent(id, this.deps.now()));
    return { deliveryId, delivered: outcome.error === null, status: outcome.status, error: outcome.error };
  }

  /** Stops listening and delivering; pending deliveries stay in their outboxes for the next start. */
  async close(): Promise<void> {
    this.unsubscribe();
    await Promise.all([...this.workers.values()].map((worker) => worker.close()));
    this.workers.clear();
  }

  private onEvent(event: DeviceEvent): void {
    for (const hook of this.stored.value) {
      if (wants(hook, event)) void this.workers.get(hook.id)?.enqueue(`${this.deps.bootId}.${event.id}`, event);
    }
  }

  private find(id: string): StoredWebhook {
    const hook = this.stored.value.find((h) => h.id === id);
    if (!hook) throw notFound(id);
    return hook;
  }

  private worker(id: string): DeliveryWorker {
    const worker = this.workers.get(id);
    if (!worker) throw notFound(id);
    return worker;
  }

  private openOutbox(id: string): Promise<Outbox> {
    return Outbox.open(join(this.deps.dir, `${id}${OUTBOX}`), this.deps.bounds, this.deps.logger);
  }

  private startWorker(hook: StoredWebhook, outbox: Outbox): void {
    const { policy, now, random, logger, post } = this.deps;
    const worker = new DeliveryWorker({ target: { url: hook.url, secret: hook.secret }, outbox, deliver: deliverer(post, policy.timeoutMs, now), policy, now, random, logger });
    this.workers.set(hook.id, worker);
    worker.start();
  }

  /** Removes the outboxes of webhooks that are gone (a crash between deleting a webhook and its outbox). */
  private removeOrphanOutboxes(): void {
    const known = new Set(this.stored.value.map((hook) => `${hook.id}${OUTBOX}`));
    for (const name of readdirSync(this.deps.dir)) {
      const journal = name.endsWith('.bak') ? name.slice(0, -'.bak'.length) : name;
      if (!journal.endsWith(OUTBOX) || known.has(journal)) continue;
      try {
        rmSync(join(this.deps.dir, name), { force: true });
        this.deps.logger.warn('webhooks: outbox of a deleted webhook removed', { file: name });
      } catch (err) {
        // a read-only partition: it stays, unread, until a later start can remove it
        this.deps.logger.warn('webhooks: outbox of a deleted webhook cannot be removed', { file: name, reason: (err as Error).message });
      }
    }
  }

  private view(hook: StoredWebhook, secret: string): WebhookView {
    const worker = this.workers.get(hook.id);
    return {
      id: hook.id,
      url: maskUrl(hook.url),
      types: hook.types,
      printers: hook.printers,
      secret,
      createdAt: hook.createdAt,
      pending: worker?.pending ?? 0,
      dropped: worker?.dropped ?? 0,
      lastDelivery: worker?.lastDelivery ?? null,
    };
  }
}

/** Creates the webhooks folder; false when the partition refuses (full or read-only: no webhook was ever stored there, writes answer 507). */
function makeFolder(dir: string, logger: Logger): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return true;
  } catch (err) {
    logger.warn('webhooks: folder cannot be created; webhooks cannot be stored', { dir, reason: (err as Error).message });
    return false;
  }
}

function notFound(id: string): AppError {
  return new AppError('WEBHOOK_NOT_FOUND', `No webhook with id: ${id}`);
}

/** Refuses a url that is not an absolute http or https URL with a host, or whose host is an address no fetch may reach. */
function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('INVALID_REQUEST', 'url must be an http or https URL');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') throw new AppError('INVALID_REQUEST', 'url must be an http or https URL');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && refusedAddress(host)) throw new AppError('INVALID_REQUEST', 'url must not be a link-local, multicast, unspecified or broadcast address');
}
