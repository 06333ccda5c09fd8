// The device's MQTT 5 connection to the fleet broker: one MQTT.js client per attempt (its in-memory store dies with it),
// our own backoff with full jitter, the retained birth and Will with the persisted epoch, and publishes that fail fast
// while the link is down instead of queueing in memory.
import type { IClientOptions, IPublishPacket, MqttClient, IConnackPacket } from 'mqtt';
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { FleetSettings } from '../schemas/fleet';
import { Backoff, STABLE_MS } from './backoff';
import type { FleetEpoch } from './fleet-epoch';
import type { FleetTopics } from './fleet-topics';
import { tcpNoDelay } from './tcp-no-delay';

/** Connects a client (MQTT.js `connect`). */
export type MqttConnect = (url: string, options: IClientOptions) => MqttClient;

/** The link state of GET /status `fleet.state` (never `disabled`: the bridge says that). */
export type LinkState = 'connecting' | 'connected' | 'error';

/** Collaborators of the link. */
export interface FleetLinkDeps {
  connect: MqttConnect;
  epoch: FleetEpoch;
  random: () => number;
  now: () => number;
  logger: Logger;
  /** The birth's `bootId`, `version` and `since`. */
  bootId: string;
  version: string;
  startedAt: string;
}

/** What the bridge does with the link. */
export interface FleetLinkHandlers {
  /** A message on a subscribed topic; `done` sends the PUBACK (call it once the request is on disk). */
  onMessage(packet: IPublishPacket, done: (err?: Error) => void): void;
  /** The link is up: birth published, P/req subscribed. */
  onUp(): void;
}

/** Options of one publish. */
export interface PublishOptions {
  retain?: boolean;
  properties?: IPublishPacket['properties'];
}

/** An MQTT packet's fixed and variable header, at most, besides topic and payload (bytes). */
const PACKET_OVERHEAD = 64;
/** How long a clean stop waits for the death message and DISCONNECT, ms. */
const STOP_GRACE_MS = 3000;

/** One device's connection; publish() rejects at once while down, so nothing piles up in memory. */
export class FleetLink {
  private client: MqttClient | null = null;
  private up = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private upSince: number | null = null;
  private epochOfAttempt = 0;
  private brokerMaxPacket = 268_435_455;
  private readonly backoff: Backoff;
  private readonly inflight = new Set<(err: Error) => void>();
  /** `connecting`, `connected` or `error` (a CONNACK refusal), with the reason. */
  state: LinkState = 'connecting';
  lastError: string | null = null;

  constructor(
    private readonly deps: FleetLinkDeps,
    private readonly settings: FleetSettings,
    private readonly topics: FleetTopics,
    private readonly handlers: FleetLinkHandlers,
  ) {
    this.backoff = new Backoff(deps.random);
  }

  /** Starts connecting (at once; then with backoff). */
  start(): void {
    this.attempt();
  }

  /** True while connected (CONNACK accepted, birth sent). */
  get connected(): boolean {
    return this.up;
  }

  /** ISO time the current connection began, or null. */
  get connectedSince(): string | null {
    return this.upSince === null ? null : new Date(this.upSince).toISOString();
  }

  /** The epoch of the current (or last) connection. */
  get epoch(): number {
    return this.epochOfAttempt;
  }

  /** Largest payload+topic the broker takes (its Maximum Packet Size, less the header), bytes. */
  get maxPublishBytes(): number {
    return this.brokerMaxPacket - PACKET_OVERHEAD;
  }

  /** Publishes at QoS 1; resolves on PUBACK, rejects when down, when the link drops first, or (PAYLOAD_TOO_LARGE) when too large for the broker. */
  publish(topic: string, payload: string | Buffer, options: PublishOptions = {}): Promise<void> {
    const client = this.client;
    if (!this.up || !client) return Promise.reject(new Error('not connected to the fleet broker'));
    const size = Buffer.byteLength(payload) + Buffer.byteLength(topic);
    if (size > this.maxPublishBytes) return Promise.reject(new AppError('PAYLOAD_TOO_LARGE', `message of ${size} bytes is larger than the broker accepts`));
    return new Promise((resolve, reject) => {
      const fail = (err: Error) => {
        this.inflight.delete(fail);
        reject(err);
      };
      this.inflight.add(fail);
      client.publish(topic, payload, { qos: 1, retain: options.retain ?? false, properties: options.properties }, (err) => {
        if (!this.inflight.delete(fail)) return;
        if (err) reject(err);
        else resolve();
      });
    });
  }

  /**
   * Stops: when connected, publishes the death `{online:false, epoch}` (and, with `clearRetained`, empties the retained
   * status and printers) before a clean DISCONNECT; then no more attempts.
   */
  async stop(clearRetained = false): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    if (!client) return;
    if (this.up) {
      const death = clearRetained
        ? [this.publish(this.topics.status, '', { retain: true }), this.publish(this.topics.printers, '', { retain: true })]
        : [this.publish(this.topics.status, JSON.stringify({ online: false, epoch: this.epochOfAttempt }), { retain: true })];
      await withTimeout(Promise.allSettled(death), STOP_GRACE_MS);
      await withTimeout(client.endAsync(false).catch(() => undefined), STOP_GRACE_MS);
    }
    this.drop(client);
  }

  private attempt(): void {
    this.timer = null;
    if (this.stopped) return;
    this.epochOfAttempt = this.deps.epoch.next;
    const client = this.deps.connect(this.settings.brokerUrl!, this.options());
    this.client = client;
    // MQTT.js sends the PUBACK of a QoS 1 message when this calls back (set before any packet can arrive)
    client.handleMessage = (packet, done) => this.handlers.onMessage(packet as IPublishPacket, (err) => done(err));
    client.on('connect', (connack) => void this.onConnect(client, connack));
    client.on('error', (err) => this.onError(err));
    client.on('close', () => this.onClose(client));
  }

  private options(): IClientOptions {
    const s = this.settings;
    const tls = { ...(s.ca ? { ca: s.ca } : {}), ...(s.cert ? { cert: s.cert } : {}), ...(s.key ? { key: s.key } : {}) };
    return {
      protocolVersion: 5,
      clientId: s.deviceId,
      clean: false,
      keepalive: s.keepaliveSec,
      reconnectPeriod: 0,
      connectTimeout: 15_000,
      queueQoSZero: false,
      resubscribe: false,
      // mqtt-packet's number cache: 65,536 two-byte Buffers made at the first write, 6 MB of heap held for good
      // (measured: a bridge's idle RSS +9.1 MiB with it); writing a packet id without it costs nothing measurable
      writeCache: false,
      ...(s.username ? { username: s.username } : {}),
      ...(s.password ? { password: s.password } : {}),
      ...tls,
      properties: { sessionExpiryInterval: s.sessionExpirySec, maximumPacketSize: 4 * s.inlineMaxBytes + 65_536 },
      will: { topic: this.topics.status, payload: Buffer.from(JSON.stringify({ online: false, epoch: this.epochOfAttempt })), qos: 1, retain: true, properties: { willDelayInterval: 0 } },
    };
  }

  private async onConnect(client: MqttClient, connack: IConnackPacket): Promise<void> {
    if (client !== this.client || this.stopped) return;
    tcpNoDelay(client);
    this.brokerMaxPacket = connack.properties?.maximumPacketSize ?? 268_435_455;
    await this.deps.epoch.commit(this.epochOfAttempt);
    this.up = true;
    this.upSince = this.deps.now();
    this.state = 'connected';
    this.lastError = null;
    const birth = { online: true, epoch: this.epochOfAttempt, bootId: this.deps.bootId, version: this.deps.version, since: this.deps.startedAt };
    try {
      await this.publish(this.topics.status, JSON.stringify(birth), { retain: true });
      await client.subscribeAsync(this.topics.req, { qos: 1 });
    } catch (err) {
      this.deps.logger.warn('fleet: birth or subscription failed', { reason: (err as Error).message });
      return;
    }
    this.deps.logger.info('fleet: connected', { broker: this.settings.brokerUrl, epoch: this.epochOfAttempt, sessionPresent: connack.sessionPresent });
    this.handlers.onUp();
  }

  private onError(err: Error & { code?: unknown }): void {
    this.lastError = err.message;
    // a CONNACK refusal carries its reason code; a network failure stays `connecting`
    if (typeof err.code === 'number') this.state = 'error';
    this.deps.logger.warn('fleet: connection error', { reason: err.message, code: err.code });
  }

  private onClose(client: MqttClient): void {
    if (client !== this.client) return;
    const lasted = this.upSince === null ? 0 : this.deps.now() - this.upSince;
    const wasUp = this.up;
    this.drop(client);
    if (wasUp) this.deps.logger.warn('fleet: connection lost', { lastedMs: lasted });
    if (this.stopped) return;
    if (this.state === 'connected') this.state = 'connecting';
    this.backoff.connectionEnded(lasted >= STABLE_MS ? lasted : 0);
    const delay = this.backoff.nextDelayMs();
    this.timer = setTimeout(() => this.attempt(), delay);
  }

  private drop(client: MqttClient): void {
    this.up = false;
    this.upSince = null;
    this.client = null;
    const failed = new Error('connection to the fleet broker lost');
    for (const fail of [...this.inflight]) fail(failed);
    client.removeAllListeners('connect');
    client.on('error', () => undefined);
    client.end(true);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
