// The fleet side's client (fleet.md "For the fleet side"): devices from their retained status, requests awaited with a
// deadline and retries that keep the request id and idempotency key, and events of one device or all.
import { randomUUID } from 'node:crypto';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { FleetClientError } from '../../errors';
import { DeviceDirectory, type FleetDevice } from './device-directory';
import { FleetTopics } from './fleet-topics';
import { PendingAnswers, type FleetAnswer } from './pending-answers';
import { tcpNoDelay } from '../tcp-no-delay';

/** How to reach the broker, as the fleet identity. */
export interface FleetClientOptions {
  /** `mqtts://host:8883` (TLS) or `mqtt://host:1883`. */
  url: string;
  /** The devices' `topicPrefix` (default `printproxy/v1`). */
  topicPrefix?: string;
  /** MQTT client id (default `fleet-` and 8 random hex digits); it also names this client's response topics. */
  clientId?: string;
  /** PEM of the CA that signed the broker's certificate, and the fleet identity's certificate and key (mTLS). */
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  username?: string;
  password?: string;
  /** How long the first connection may take, in ms (default 10,000); later ones are retried every second. */
  connectTimeoutMs?: number;
}

/** A request to a device: the HTTP API, with `path` relative to `/api/v1` (fleet.md "Requests and answers"). */
export interface FleetRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** The request id (default: a new random one); a retry sends the same id, which de-duplicates a job without an Idempotency-Key. */
  id?: string;
}

/** Deadline and retries of one request. */
export interface RequestOptions {
  /** Time in ms after which the request fails with FLEET_TIMEOUT (default 30,000). */
  deadlineMs?: number;
  /** How many times the same request (same id, same headers) is sent again within the deadline when no answer came (default 2). */
  retries?: number;
}

/** One event of one device, as published on `P/events/<type>`. */
export interface FleetEvent {
  deviceId: string;
  type: string;
  event: Record<string, unknown>;
}

/** How one request is sent and for how long its answer is awaited. */
interface Attempts {
  deadlineMs: number;
  count: number;
  /** The request in words, for the timeout's message. */
  what: string;
  send: () => void;
}

type DeviceListener = (device: FleetDevice | { deviceId: string; removed: true }) => void;
type EventListener = (event: FleetEvent) => void;

/** A connection to the broker as the fleet side; build it with FleetClient.connect, end it with close(). */
export class FleetClient {
  private readonly directory = new DeviceDirectory();
  private readonly printerLists = new Map<string, unknown[]>();
  private readonly pending = new PendingAnswers();
  private readonly deviceListeners = new Set<DeviceListener>();
  private readonly eventListeners = new Set<{ deviceId: string | null; listener: EventListener }>();
  /** Event filters subscribed now; never overlapping (all devices, or some), so no event arrives twice. */
  private eventFilters = new Set<string>();
  private reconciling: Promise<void> = Promise.resolve();
  private readonly cancels = new Set<(err: Error) => void>();
  private closed = false;

  /** Takes a connected MQTT 5 client; call start() before use (FleetClient.connect does both). */
  constructor(
    private readonly mqtt: MqttClient,
    readonly topics: FleetTopics,
    readonly clientId: string,
  ) {
    this.mqtt.on('message', (topic, payload, packet) => this.dispatch(topic, payload, packet));
  }

  /** Connects to the broker, reads every device's retained status and printers, and resolves when that is done. */
  static async connect(options: FleetClientOptions): Promise<FleetClient> {
    const clientId = options.clientId ?? `fleet-${randomUUID().replace(/-/g, '').slice(0, 8)}`;
    const client = mqtt.connect(options.url, mqttOptions(options, clientId));
    client.on('connect', () => tcpNoDelay(client));
    await firstConnection(client, options.url, options.connectTimeoutMs ?? 10_000);
    const fleet = new FleetClient(client, new FleetTopics(options.topicPrefix), clientId);
    await fleet.start();
    return fleet;
  }

  /** Subscribes to status, printers and answers, and waits until the broker has sent the retained ones. */
  async start(): Promise<void> {
    const t = this.topics;
    await this.mqtt.subscribeAsync({ [t.filter('status')]: { qos: 1 }, [t.filter('printers')]: { qos: 1 }, [t.filter('res')]: { qos: 1 }, [t.responseFilter(this.clientId)]: { qos: 1 } });
    await this.sync();
  }

  /** Resolves once every message the broker queued for this client before now has arrived (a SUBACK as a barrier). */
  async sync(): Promise<void> {
    const barrier = `${this.topics.prefix}/$sync/${this.clientId}`;
    await this.mqtt.subscribeAsync(barrier, { qos: 0 });
    await this.mqtt.unsubscribeAsync(barrier);
  }

  /** Every device that has announced itself, sorted by id, online or not. */
  devices(): FleetDevice[] {
    return this.directory.list();
  }

  /** One device, or undefined when none has announced that id. */
  device(deviceId: string): FleetDevice | undefined {
    return this.directory.get(deviceId);
  }

  /** The device's last published printer list (GET /printers content), or null when it never published one. */
  printers(deviceId: string): unknown[] | null {
    return this.printerLists.get(deviceId) ?? null;
  }

  /** Calls `listener` on every birth, death or removal of a device; returns the function that stops it. */
  onDevice(listener: DeviceListener): () => void {
    this.deviceListeners.add(listener);
    return () => this.deviceListeners.delete(listener);
  }

  /** Sends a request to a device and resolves with its answer (any status); rejects FLEET_TIMEOUT after the deadline. */
  request(deviceId: string, request: FleetRequest, options: RequestOptions = {}): Promise<FleetAnswer> {
    if (this.closed) return Promise.reject(new FleetClientError('FLEET_CLOSED', 'the fleet client is closed'));
    const id = request.id ?? `fleet-${randomUUID()}`;
    const payload = Buffer.from(JSON.stringify({ id, method: request.method, path: request.path, headers: request.headers ?? {}, body: request.body }));
    const attempt: Attempts = {
      deadlineMs: options.deadlineMs ?? 30_000,
      count: 1 + Math.max(0, Math.floor(options.retries ?? 2)),
      what: `device ${deviceId} to ${request.method} ${request.path} (request ${id})`,
      send: () => this.publishRequest(deviceId, id, payload),
    };
    return this.answerOf(deviceId, id, attempt);
  }

  /** Sends the same request `count` times at most, evenly within the deadline, until its answer comes. */
  private answerOf(deviceId: string, id: string, attempt: Attempts): Promise<FleetAnswer> {
    return new Promise<FleetAnswer>((resolve, reject) => {
      let sent = 0;
      let retry: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(retry);
        clearTimeout(deadline);
        withdraw();
        this.cancels.delete(cancel);
      };
      const cancel = (err: Error) => {
        finish();
        reject(err);
      };
      const withdraw = this.pending.expect(deviceId, id, (answer) => {
        finish();
        resolve(answer);
      });
      const timeout = () => cancel(new FleetClientError('FLEET_TIMEOUT', `no answer from ${attempt.what} within ${attempt.deadlineMs} ms after ${sent} attempt(s)`));
      const deadline = setTimeout(timeout, attempt.deadlineMs);
      const next = () => {
        sent += 1;
        attempt.send();
        if (sent < attempt.count) retry = setTimeout(next, attempt.deadlineMs / attempt.count);
      };
      this.cancels.add(cancel);
      next();
    });
  }

  /** Calls `listener` with every event of `deviceId` (or of every device when null); resolves, once subscribed, with the function that stops it. */
  async events(deviceId: string | null, listener: EventListener): Promise<() => Promise<void>> {
    const entry = { deviceId, listener };
    this.eventListeners.add(entry);
    await this.reconcileEvents();
    return async () => {
      if (this.eventListeners.delete(entry) && !this.closed) await this.reconcileEvents();
    };
  }

  /** Fails every waiting request with FLEET_CLOSED and disconnects cleanly. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const cancel of [...this.cancels]) cancel(new FleetClientError('FLEET_CLOSED', 'the fleet client was closed before the answer came'));
    await this.mqtt.endAsync();
  }

  private publishRequest(deviceId: string, id: string, payload: Buffer): void {
    const properties = { responseTopic: this.topics.responseTopic(deviceId, this.clientId), correlationData: Buffer.from(id) };
    // a failed publish is covered by the next attempt or the deadline
    this.mqtt.publish(this.topics.of(deviceId, 'req'), payload, { qos: 1, properties }, () => undefined);
  }

  private dispatch(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const parsed = this.topics.parse(topic);
    if (!parsed) return;
    switch (parsed.kind) {
      case 'status':
        return this.onStatus(parsed.deviceId, payload);
      case 'printers':
        return this.onPrinters(parsed.deviceId, payload);
      case 'res':
        this.pending.deliver(parsed.deviceId, payload, packet.properties?.correlationData);
        return;
      case 'events':
        return this.onEvent(parsed.deviceId, parsed.rest, payload);
    }
  }

  private onStatus(deviceId: string, payload: Buffer): void {
    const change = this.directory.apply(deviceId, payload);
    if (change.kind === 'ignored') return;
    if (change.kind === 'removed') this.printerLists.delete(deviceId);
    const news = change.kind === 'updated' ? change.device : { deviceId, removed: true as const };
    for (const listener of this.deviceListeners) listener(news);
  }

  private onPrinters(deviceId: string, payload: Buffer): void {
    if (payload.length === 0) {
      this.printerLists.delete(deviceId);
      return;
    }
    const list = parseJson(payload);
    if (Array.isArray(list)) this.printerLists.set(deviceId, list);
  }

  private onEvent(deviceId: string, topicType: string, payload: Buffer): void {
    const event = parseJson(payload);
    if (typeof event !== 'object' || event === null || Array.isArray(event)) return;
    const record = event as Record<string, unknown>;
    const type = typeof record.type === 'string' ? record.type : topicType;
    for (const entry of this.eventListeners) {
      if (entry.deviceId === null || entry.deviceId === deviceId) entry.listener({ deviceId, type, event: record });
    }
  }

  private reconcileEvents(): Promise<void> {
    this.reconciling = this.reconciling.catch(() => undefined).then(() => this.applyEventFilters());
    return this.reconciling;
  }

  /** Subscribes the filters the listeners need (one for all devices when any listener wants all) and drops the rest. */
  private async applyEventFilters(): Promise<void> {
    const entries = [...this.eventListeners];
    const wanted = new Set(entries.some((e) => e.deviceId === null) ? [this.topics.eventsFilter('+')] : entries.map((e) => this.topics.eventsFilter(e.deviceId ?? '+')));
    const add = [...wanted].filter((f) => !this.eventFilters.has(f));
    const drop = [...this.eventFilters].filter((f) => !wanted.has(f));
    if (add.length > 0) await this.mqtt.subscribeAsync(add, { qos: 1 });
    if (drop.length > 0) await this.mqtt.unsubscribeAsync(drop);
    this.eventFilters = wanted;
  }
}

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}

function mqttOptions(options: FleetClientOptions, clientId: string): IClientOptions {
  return {
    protocolVersion: 5,
    clientId,
    clean: true,
    ca: options.ca,
    cert: options.cert,
    key: options.key,
    username: options.username,
    password: options.password,
    rejectUnauthorized: true,
    reconnectPeriod: 1000,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    // every retained status arrives before the sync barrier's SUBACK only when the broker need not hold any back
    properties: { receiveMaximum: 65535 },
  };
}

function firstConnection(client: MqttClient, url: string, limitMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      cleanup();
      client.end(true);
      reject(new FleetClientError('FLEET_CONNECT_FAILED', `cannot connect to ${url}: ${why}`));
    };
    const onConnect = () => {
      cleanup();
      resolve();
    };
    const onError = (err: Error) => fail(err.message);
    const timer = setTimeout(() => fail(`no CONNACK within ${limitMs} ms`), limitMs);
    const cleanup = () => {
      clearTimeout(timer);
      client.off('connect', onConnect);
      client.off('error', onError);
    };
    client.on('connect', onConnect);
    client.on('error', onError);
  });
}
