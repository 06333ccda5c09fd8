// Printers, jobs and the last update kept current: read with GET, then changed by events; views subscribe and re-render on change.
import type { Api } from './api';
import type { JobRecord as Job } from '../../src/schemas/job';
import type { Printer } from '../../src/schemas/printer';
import type { UpdateRecord } from '../../src/schemas/system';
import type { DeviceEvent } from './types';

/** The live lists, and whether the socket is up. */
export interface LiveState {
  printers: Printer[] | null;
  jobs: Job[] | null;
  /** The last update of the device (GET /system/update, then `system.update` events): null before the first, undefined until read. */
  update?: UpdateRecord | null;
  connected: boolean;
  /** The last failure to read the lists, in words. */
  error: string | null;
}

/** Holds LiveState; `reload` re-reads it, `apply` folds in one event. */
export class LiveData {
  state: LiveState = { printers: null, jobs: null, connected: false, error: null };
  private readonly listeners = new Set<() => void>();

  constructor(private readonly api: Api) {}

  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Re-reads printers, jobs and the last update, each shown as soon as it arrives. */
  async reload(): Promise<void> {
    const fail = (err: unknown) => this.set({ error: (err as Error).message });
    await Promise.all([
      this.api.get<Printer[]>('/printers').then((printers) => this.set({ printers, error: null }), fail),
      this.api.get<Job[]>('/jobs').then((jobs) => this.set({ jobs: sortJobs(jobs) }), fail),
      this.api.get<UpdateRecord | null>('/system/update').then((update) => this.set({ update }), fail),
    ]);
  }

  /** Marks the socket up or down. */
  setConnected(connected: boolean): void {
    this.set({ connected });
  }

  /** Puts a printer or job the page learnt of by an answer (a new printer, a submitted job). */
  upsertPrinter(printer: Printer): void {
    this.set({ printers: upsert(this.state.printers ?? [], printer, (p) => p.path === printer.path) });
  }

  /** Adds or replaces a job by id, newest first. */
  upsertJob(job: Job): void {
    this.set({ jobs: sortJobs(upsert(this.state.jobs ?? [], job, (j) => j.jobId === job.jobId)) });
  }

  /** Puts an update the page learnt of by an answer (POST /system/update), unless an event told of it already (events are newer). */
  learnUpdate(update: UpdateRecord): void {
    if (this.state.update?.id !== update.id) this.set({ update });
  }

  /** Folds one event into the lists. */
  apply(event: DeviceEvent): void {
    const printers = this.state.printers ?? [];
    switch (event.type) {
      case 'printer.status':
        this.set({ printers: printers.map((p) => (p.path === event.data.path ? { ...p, status: event.data.status, statusReasons: event.data.statusReasons } : p)) });
        break;
      case 'printer.added':
      case 'printer.updated':
        this.upsertPrinter(event.data as Printer);
        break;
      case 'printer.removed':
        this.set({ printers: printers.filter((p) => p.path !== event.data.path) });
        break;
      case 'job.state':
        this.upsertJob(event.data as Job);
        break;
      case 'job.printed':
        this.set({ jobs: (this.state.jobs ?? []).map((j) => (j.jobId === event.data.jobId && !j.printedAt ? { ...j, printedAt: event.time ?? null } : j)) });
        break;
      case 'system.update':
        this.set({ update: event.data as UpdateRecord });
        break;
    }
  }

  private set(change: Partial<LiveState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}

function upsert<T>(list: T[], item: T, same: (x: T) => boolean): T[] {
  const at = list.findIndex(same);
  return at < 0 ? [...list, item] : list.map((x, i) => (i === at ? item : x));
}

function sortJobs(jobs: Job[]): Job[] {
  return [...jobs].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.jobId < b.jobId ? 1 : -1));
}
