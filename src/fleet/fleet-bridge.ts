// The fleet bridge (fleet.md): the device side of MQTT. It owns the link to the broker, runs requests through the API's
// routes, publishes answers, events (with the on-disk outbox while down) and the retained printer list, and reports
// `fleet` for GET /status.
import type { DeviceEvent, EventBus } from '../events/event-bus';
import { AppError } from '../errors';
import type { CallAnswer, ApiDispatcher } from '../http/api-dispatch';
import type { Logger } from '../log';
import type { FleetSettings, FleetStatus } from '../schemas/fleet';
import type { JobRecord } from '../schemas/job';
import { AnswerLog, type ReplyRoute } from './answer-log';
import { DEFAULT_EVENT_OUTBOX_BOUNDS, EventOutbox } from './event-outbox';
import { FleetEpoch } from './fleet-epoch';
import type { FleetSettingsStore } from './fleet-settings-store';
import { fleetTopics, type FleetTopics } from './fleet-topics';
import { JobAnswers } from './job-answers';
import { FleetLink, type MqttConnect } from './mqtt-link';
import { RequestRunner } from './request-runner';

/** Collaborators of the bridge. */
export interface FleetBridgeDeps {
  /** DATA/fleet: epoch, answers journal, events outbox. */
  dir: string;
  settings: FleetSettingsStore;
  dispatcher: ApiDispatcher;
  bus: EventBus;
  job: (jobId: string) => Promise<JobRecord | undefined>;
  maxBodyBytes: () => number;
  connect: MqttConnect;
  bootId: string;
  version: string;
  logger: Logger;
  now: () => number;
  random: () => number;
}

/** Most answers kept in memory while the link is down (their keys' stored answers replay on a retry anyway). */
const MAX_UNSENT_ANSWERS = 1000;
/** Most answered keys the de-duplication journal keeps. */
const MAX_ANSWERED_KEYS = 10_000;
/** Printer changes within this time go out as one retained list, ms. */
const PRINTERS_COALESCE_MS = 200;

/** The bridge; start() after the HTTP listeners, stop() before them. */
export class FleetBridge {
  private link: FleetLink | null = null;
  private topics: FleetTopics;
  private unsubscribe: (() => void) | null = null;
  private unsent: Array<{ route: ReplyRoute; answer: CallAnswer }> = [];
  private draining = false;
  private printersTimer: NodeJS.Timeout | null = null;
  private readonly runner: RequestRunner;
  private readonly jobAnswers: JobAnswers;
  private readonly startedAt: string;

  private constructor(
    private readonly deps: FleetBridgeDeps,
    private readonly epoch: FleetEpoch,
    answers: AnswerLog,
    private readonly outbox: EventOutbox,
  ) {
    this.startedAt = new Date(deps.now()).toISOString();
    this.topics = fleetTopics(deps.settings.value.topicPrefix, deps.settings.value.deviceId);
    const send = (route: ReplyRoute, answer: CallAnswer) => this.send(route, answer);
    this.jobAnswers = new JobAnswers({ answers, job: deps.job, send, failure: (m, e) => deps.dispatcher.failure(m, e), now: deps.now, logger: deps.logger });
    this.runner = new RequestRunner({
      dispatcher: deps.dispatcher, answers, jobAnswers: this.jobAnswers, send, logger: deps.logger, now: deps.now,
      settings: () => deps.settings.value, topics: () => this.topics, maxBodyBytes: deps.maxBodyBytes,
    });
  }

  /** Opens the bridge's files in `deps.dir`. */
  static async open(deps: FleetBridgeDeps): Promise<FleetBridge> {
    const retentionMs = () => Math.max(deps.settings.value.sessionExpirySec, 3600) * 1000;
    const answers = await AnswerLog.open(deps.dir, { retentionMs, maxEntries: MAX_ANSWERED_KEYS }, deps.now, deps.logger);
    const outbox = await EventOutbox.open(deps.dir, DEFAULT_EVENT_OUTBOX_BOUNDS, deps.logger);
    return new FleetBridge(deps, new FleetEpoch(deps.dir), answers, outbox);
  }

  /** Subscribes to the bus, resumes the answers owed since the last run, and connects when enabled. */
  start(): void {
    this.unsubscribe = this.deps.bus.subscribe((event) => this.onEvent(event));
    this.jobAnswers.resume();
    this.connect();
  }

  /** Applies settings just stored (`previous` were in force): a clean stop (clearing the old retained topics when P moves), then a new start. */
  async reconfigure(previous: FleetSettings): Promise<void> {
    const next = this.deps.settings.value;
    const moved = previous.deviceId !== next.deviceId || previous.topicPrefix !== next.topicPrefix;
    await this.link?.stop(moved);
    this.link = null;
    this.topics = fleetTopics(next.topicPrefix, next.deviceId);
    this.connect();
  }

  /** Publishes the death, disconnects cleanly, and unsubscribes. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.printersTimer) clearTimeout(this.printersTimer);
    this.jobAnswers.clear();
    await this.link?.stop(false);
    this.link = null;
  }

  /** `fleet` of GET /status. */
  status(): FleetStatus {
    const s = this.deps.settings.value;
    const link = this.link;
    return {
      state: !s.enabled || !link ? 'disabled' : link.state,
      brokerUrl: s.brokerUrl,
      connectedSince: link?.connectedSince ?? null,
      lastError: link?.lastError ?? null,
      pendingEvents: this.outbox.pending,
    };
  }

  /** Lines for GET /status `warnings`. */
  warnings(): string[] {
    const s = this.deps.settings.value;
    const out: string[] = [];
    if (s.enabled && s.brokerUrl?.startsWith('mqtt://')) out.push('fleet: the broker URL is plain mqtt://, so requests and answers travel unencrypted; use mqtts://');
    if (this.epoch.notStored) out.push('fleet: the connection epoch could not be stored; it goes on in memory');
    return out;
  }

  private connect(): void {
    const s = this.deps.settings.value;
    if (!s.enabled || !s.brokerUrl) return;
    const { connect, logger, now, random, bootId, version } = this.deps;
    this.link = new FleetLink({ connect, epoch: this.epoch, random, now, logger, bootId, version, startedAt: this.startedAt }, { ...s }, this.topics, {
      onMessage: (packet, done) => (packet.topic === this.topics.req ? this.runner.handle(packet, done) : done()),
      onUp: () => this.onUp(),
    });
    this.link.start();
  }

  private onUp(): void {
    void this.publishPrinters();
    const unsent = this.unsent;
    this.unsent = [];
    for (const { route, answer } of unsent) this.send(route, answer);
    void this.drainOutbox();
  }

  /** Publishes the outbox in order while connected; events stored during a drain are drained too, never left behind. */
  private async drainOutbox(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    let emptied = false;
    try {
      const link = this.link;
      if (link?.connected) emptied = await this.outbox.drain((line) => this.publishEvent(link, line));
    } finally {
      this.draining = false;
    }
    // an event stored after the drain's last read, whose own drain call found this one running
    if (emptied && this.outbox.pending > 0 && this.link?.connected) void this.drainOutbox();
  }

  private onEvent(event: DeviceEvent): void {
    this.jobAnswers.onEvent(event);
    if (!this.deps.settings.value.enabled) return;
    if (event.type.startsWith('printer.')) this.schedulePrinters();
    const line = JSON.stringify({ ...event, bootId: this.deps.bootId });
    const link = this.link;
    if (link?.connected && !this.draining && this.outbox.pending === 0) {
      this.publishEvent(link, line).catch(() => void this.outbox.add(line));
    } else {
      void this.outbox.add(line).then(() => {
        if (this.link?.connected) void this.drainOutbox();
      });
    }
  }

  /** Publishes one event line on P/events/<type>; one larger than the broker takes is dropped (logged), never retried. */
  private publishEvent(link: FleetLink, line: string): Promise<void> {
    return link.publish(this.topics.event(eventType(line)), line).catch((err: unknown) => {
      if (!(err instanceof AppError && err.code === 'PAYLOAD_TOO_LARGE')) throw err;
      this.deps.logger.warn('fleet: an event larger than the broker accepts was dropped', { reason: err.message });
    });
  }

  private schedulePrinters(): void {
    if (this.printersTimer) return;
    this.printersTimer = setTimeout(() => {
      this.printersTimer = null;
      void this.publishPrinters();
    }, PRINTERS_COALESCE_MS);
  }

  private async publishPrinters(): Promise<void> {
    const link = this.link;
    if (!link?.connected) return;
    const { dispatcher } = this.deps;
    const answer = await dispatcher.execute(dispatcher.resolve('GET', '/printers'), { headers: {}, body: undefined, remoteAddress: 'mqtt', signal: new AbortController().signal });
    const content = (answer.body as { result?: { content?: unknown } }).result?.content ?? [];
    await link.publish(this.topics.printers, JSON.stringify(content), { retain: true }).catch((err: Error) => this.deps.logger.warn('fleet: printers not published', { reason: err.message }));
  }

  /** Publishes an answer to its route; one too large for the broker becomes a small 413; kept (bounded) while down. */
  private send(route: ReplyRoute, answer: CallAnswer): void {
    const link = this.link;
    if (!link?.connected) {
      if (this.unsent.length >= MAX_UNSENT_ANSWERS) this.unsent.shift();
      this.unsent.push({ route, answer });
      return;
    }
    let payload = JSON.stringify({ id: route.id, status: answer.status, body: answer.body });
    if (Buffer.byteLength(payload) + Buffer.byteLength(route.topic) > link.maxPublishBytes) {
      const small = this.deps.dispatcher.failure('', new AppError('PAYLOAD_TOO_LARGE', `the answer (${Buffer.byteLength(payload)} bytes) is larger than the broker accepts`));
      payload = JSON.stringify({ id: route.id, status: small.status, body: small.body });
    }
    const properties = route.correlation ? { correlationData: Buffer.from(route.correlation, 'base64') } : undefined;
    link.publish(route.topic, payload, { properties }).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'PAYLOAD_TOO_LARGE') return;
      if (this.unsent.length < MAX_UNSENT_ANSWERS) this.unsent.push({ route, answer });
    });
  }
}

function eventType(line: string): string {
  try {
    const type = (JSON.parse(line) as { type?: unknown }).type;
    return typeof type === 'string' ? type : 'unknown';
  } catch {
    return 'unknown';
  }
}
