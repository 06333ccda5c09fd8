// webhooks.json: the registered webhooks, loaded with fallback to the backup, each change written atomically before it is current.
import { renameSync } from 'node:fs';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError } from '../errors';
import type { Logger } from '../log';
import { StoredWebhooksSchema, type StoredWebhook, type StoredWebhooks } from '../schemas/webhook';
import { readWithFallback, writeFileAtomic } from '../settings/atomic-file';

const checkStored = TypeCompiler.Compile(StoredWebhooksSchema);

/** Owns webhooks.json; every change goes through `update`, one at a time, written to disk before memory changes. */
export class WebhookList {
  private current: StoredWebhook[];
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly file: string, private readonly logger: Logger) {
    const loaded = readWithFallback(file, parseStored);
    if (loaded?.from !== 'main') this.setAsideBroken(loaded ? 'using the previous copy' : 'starting without webhooks');
    this.current = loaded?.value.webhooks ?? [];
  }

  /** The webhooks as stored; treat as read-only. */
  get value(): readonly StoredWebhook[] {
    return this.current;
  }

  /**
   * After every earlier change, applies `change` to a copy and writes it atomically; only then is the copy current. A throw
   * from `change` is passed on with nothing written; a failed write changes nothing and rejects with CHANGE_NOT_STORED.
   */
  update(change: (draft: StoredWebhook[]) => void): Promise<void> {
    const run = this.queue.then(async () => {
      const draft = structuredClone(this.current);
      change(draft);
      await this.write(draft);
      this.current = draft;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Moves an unreadable webhooks.json (if any) to `.corrupt`, so the next write cannot make it the backup over a good copy. */
  private setAsideBroken(outcome: string): void {
    try {
      renameSync(this.file, `${this.file}.corrupt`);
      this.logger.warn(`webhooks.json unreadable, ${outcome}`, { file: this.file, keptAs: `${this.file}.corrupt` });
    } catch {
      // missing: a first start
    }
  }

  private async write(webhooks: StoredWebhook[]): Promise<void> {
    const stored: StoredWebhooks = { version: 1, webhooks };
    try {
      await writeFileAtomic(this.file, JSON.stringify(stored, null, 2));
    } catch (err) {
      this.logger.warn('webhooks could not be saved; nothing changed', { file: this.file, reason: (err as Error).message });
      throw new AppError('CHANGE_NOT_STORED', `The change could not be written to the device's storage (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  }
}

function parseStored(text: string): StoredWebhooks {
  const value = JSON.parse(text) as unknown;
  if (!checkStored.Check(value)) throw new TypeError('webhooks.json does not match the schema');
  return value;
}
