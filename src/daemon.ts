// Composition root of the daemon: builds every object from options, starts them, stops them in reverse order.
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { buildInfo } from './build-info';
import type { DaemonOptions } from './cli';
import { readDeviceStatus } from './device/device-status';
import type { DeviceStatus } from './schemas/device';
import type { FleetStatus } from './schemas/fleet';
import { execRunner } from './device/netbird-status';
import { cachedSystemInfo, lanAddress } from './device/system-info';
import { ensureTlsPair, type TlsPair } from './device/tls-cert';
import { StorageHealth } from './device/storage-health';
import { storageProbe } from './device/storage-probe';
import { MdnsAdvertiser } from './discovery/mdns-advertiser';
import type { DiscoverySource } from './discovery/source';
import { EventBus } from './events/event-bus';
import { EventRing } from './events/event-ring';
import { StatusDemand, takesPrinterStatus } from './events/status-demand';
import { PrinterMonitor } from './printers/printer-monitor';
import { EVENTS_SOCKET_DOC, eventsSocket } from './http/routes/events';
import { collectGarbageSoon } from './util/collect-garbage';
import { createFilters, type Render } from './filters/filters';
import { ApiAuth } from './http/auth';
import { buildOpenApi } from './http/openapi';
import { FailureLimiter } from './http/rate-limiter';
import type { Route } from './http/route';
import { extensionRoutes } from './http/routes/extensions';
import { jobRoutes } from './http/routes/jobs';
import { openApiRoute } from './http/routes/openapi';
import { previewRoutes } from './http/routes/preview';
import { printRoutes } from './http/routes/print';
import { printerRoutes } from './http/routes/printers';
import { settingsRoutes } from './http/routes/settings';
import { shareRoutes } from './http/routes/shares';
import { statusRoutes } from './http/routes/status';
import { healthRoutes } from './http/routes/health';
import { languageRoutes } from './http/routes/languages';
import { webhookRoutes } from './http/routes/webhooks';
import { consoleMount } from './http/console-site';
import { HttpServer } from './http/server';
import { loadUws } from './http/uws';
import { AppError } from './errors';
import { kindOf, kindServing, languageOf, locateManual, pathFromUri, PRINTER_KINDS, reportedDpi, startKinds, stopKinds, type KindDeps } from './kinds';
import type { Logger } from './log';
import { statusEvent, watchDevice } from './printers/device-events';
import { PrinterRuntimes } from './printers/printer-runtimes';
import { PrinterRegistry } from './printers/registry';
import { StatusCache } from './printers/status-cache';
import { renderWorkersOf } from './settings/render-workers';
import { isTemporary, removeLeftovers } from './settings/atomic-file';
import { SettingsStore } from './settings/settings-store';
import { StopStack } from './util/stop-stack';
import { DiskSpool } from './spooler/disk-spool';
import { KeyJournal } from './spooler/key-journal';
import { spoolLimit } from './spooler/spool-limit';
import { MemoryBudget } from './util/memory-budget';
import { ConnectionGate } from './util/connection-gate';
import { descriptorLimit, keylessDoorLimits } from './device/descriptor-limit';
import { JobStore } from './spooler/job-store';
import { documentLoader } from './spooler/load-document';
import { allowedRoots } from './spooler/share-roots';
import { createRenderService, renderPoolStarter } from './render/render-service';
import { Spooler } from './spooler/spooler';
import type { UsbBackend } from './usb/usb-backend';
import { httpPost } from './webhooks/http-post';
import { DEFAULT_OUTBOX_BOUNDS } from './webhooks/outbox';
import { Webhooks } from './webhooks/webhooks';
import { IppJobTable } from './sharing/ipp-job-table';
import { IppOperations } from './sharing/ipp-operations';
import { busyAnswer, IppService } from './sharing/ipp-service';
import { RAW_JOB_RETRY_MS, RAW_JOB_WAIT_MS, RawPorts } from './sharing/raw-ports';
import { SpoolerLine } from './sharing/spooler-line';
import { printerServices } from './sharing/printer-services';
import { printerIconPng } from './sharing/printer-icon';
import { ApiDispatcher } from './http/api-dispatch';
import { fleetRoutes } from './http/routes/fleet';
import { FleetBridge, type FleetBridgeDeps } from './fleet/fleet-bridge';
import { FleetSettingsStore } from './fleet/fleet-settings-store';
import { setupRoutes } from './http/routes/setup';
import { systemRoutes } from './http/routes/system';
import { HostnameFile } from './system/hostname-file';
import { RaucStatus } from './system/rauc-status';
import { RaucClient } from './system/rauc-client';
import { spawnLines } from './system/line-runner';
import { statfsFreeBytes } from './system/bundle-file';
import { gateReportFile, trialSlotFile } from './system/gate-report';
import { helperSeal, inPlace } from './system/bundle-seal';
import { fifoRebootRequest } from './system/reboot-request';
import { UpdateManager } from './system/update-manager';
import { UpdateStore } from './system/update-store';
import { applySetupFile } from './system/setup-file';
import type { MqttConnect } from './fleet/mqtt-link';

/** Where the daemon ended up listening. */
export interface RunningDaemon {
  httpPort: number;
  httpsPort: number | null;
  /** The IPP port of shared printers, or null when off (--no-ipp) or when it could not be opened (a warning in GET /status). */
  ippPort: number | null;
  /** The in-process event bus (job, printer and device changes). */
  events: EventBus;
  /** Stops accepting, finishes in-flight answers and queued writes, releases devices. */
  stop(): Promise<void>;
}

/** Hardware and heavy parts the daemon talks to, swappable by the caller (libusb on the device, a fake USB bus in tests). */
export interface DaemonHardware {
  /** Opens the USB bus, logging to `logger`; may throw when libusb cannot load (the daemon then runs without USB and says so). */
  usb: (logger: Logger) => UsbBackend;
  /** Wraps the renderer (the worker pool) the daemon builds; a caller may observe or count renders. Default: as built. */
  render?: (render: Render) => Render;
}

const HOUR_MS = 3_600_000;
/** Jobs waiting or printing at once, across printers: queued jobs hold no document bytes in memory, about 2 KiB each. */
const MAX_UNFINISHED_JOBS = 1000;
/** Below this many free bytes the data partition counts as full in GET /status: a settings write with its backup needs a few KiB. */
const MIN_FREE_BYTES = 16 * 1024;
/** How often writes that waited for room are retried when nobody reads GET /status (which retries at once). */
const STORAGE_RETRY_MS = 60_000;
/** Longest wait for `rauc status` (D-Bus to RAUC's service), in ms. */
const RAUC_TIMEOUT_MS = 10_000;
/** device-image.md: the slot's good mark and idle jobs looked at every 2 s, progress told at most every 2 s, 15 min for the gate, 10 for idle jobs. */
const UPDATE_TIMINGS = { pollMs: 2000, progressEveryMs: 2000, goodWaitMs: 15 * 60_000, idleWaitMs: 10 * 60_000, rebootWaitMs: 10 * 60_000, downloadRetryMs: 2000 };
/** IPP requests in progress at once (each holds a connection): in all, and from one source address. */
const IPP_LIMITS = { total: 64, perAddress: 16 };

/**
 * Starts the daemon; `announce` receives the lines meant for stdout (listening addresses; on an unclaimed device, where to set the key). Its stop undoes
 * the start in reverse order; a start that fails halfway undoes what it had started, then rejects.
 */
export async function startDaemon(options: DaemonOptions, logger: Logger, announce: (line: string) => void, hardware: DaemonHardware): Promise<RunningDaemon> {
  const started = new StopStack(logger);
  try {
    return await startParts(options, logger, announce, hardware, started);
  } catch (err) {
    await started.unwind();
    throw err;
  }
}

/** What every step shares: the options, the log, the stop stack, the warnings GET /status shows, stdout's lines. */
interface StartContext {
  options: DaemonOptions;
  logger: Logger;
  started: StopStack;
  warnings: string[];
  announce: (line: string) => void;
}

/** Builds and starts every part, step by step; each step pushes how to undo what it started onto `started`. */
async function startParts(options: DaemonOptions, logger: Logger, announce: (line: string) => void, hardware: DaemonHardware, started: StopStack): Promise<RunningDaemon> {
  const ctx: StartContext = { options, logger, started, warnings: [], announce };
  const storage = await openSettings(ctx);
  const events = await startEvents(ctx, storage);
  const printing = startPrinting(ctx, storage, events, hardware);
  const spooling = await startSpooling(ctx, storage, printing);
  const updates = startUpdates(ctx, storage, events, spooling);
  // made once the listeners are up; the routes reach it through this holder
  const fleet: { bridge: FleetBridge | null } = { bridge: null };
  const routes = apiRoutes(ctx, storage, events, printing, spooling, updates, fleet);
  const http = await startHttp(ctx, storage, events, printing, spooling, routes, updates.version);
  await startRawPorts(ctx, storage, printing, spooling, http);
  const ippPort = options.ippPort === null ? null : await listenIpp(http.server, options.host, options.ippPort, ctx.warnings, logger);
  if (ippPort !== null) announce(`listening on ipp://${options.host}:${ippPort}`);
  startAdvertising(ctx, storage, printing, { ippPort, httpPort: http.httpPort, httpsPort: http.httpsPort() });
  fleet.bridge = await startFleet(ctx, storage, events, spooling, routes, updates.version);
  return {
    httpPort: http.httpPort,
    httpsPort: http.httpsPort(),
    ippPort,
    events: events.bus,
    /** Stops every part in reverse order of start. */
    stop: () => started.unwind(),
  };
}

/** The data folder's settings (after the setup file, when given), and the storage watch; stops: the settings' last write, the retries. */
async function openSettings(ctx: StartContext) {
  const { options, logger, started, warnings } = ctx;
  const dataDir = resolve(options.dataDir);
  const settings = new SettingsStore({ dataDir, seedApiKey: options.apiKey, logger });
  // temporaries a crash left in the data dir (the TLS pair's, say); settings' own and the spool's are swept by their owners
  const swept = removeLeftovers(dataDir, isTemporary);
  if (swept.length > 0) logger.warn('temporary files of interrupted writes removed', { files: swept });
  const fleetDir = join(dataDir, 'fleet');
  const fleetSettings = new FleetSettingsStore(fleetDir, () => settings.value.deviceId);
  // before anything reads the settings it may change (the key, the device id, the fleet) and before the API is served
  if (options.setupFile) {
    const setup = await applySetupFile(options.setupFile, { settings, fleet: fleetSettings, hostnameFile: new HostnameFile(dataDir), logger });
    warnings.push(...setup.warnings);
  }
  // a full or read-only partition is a warning, not a failed start: the settings stay in memory and are stored once there is room
  const storage = new StorageHealth({ probe: storageProbe(dataDir), minFreeBytes: MIN_FREE_BYTES, logger });
  started.push('settings', () => settings.flush());
  await settings.persist().catch((err: unknown) => storage.retryLater('settings', err, () => settings.persist()));
  started.push('storage retry', storage.retryEvery(STORAGE_RETRY_MS));
  return { dataDir, settings, fleetDir, fleetSettings, storage };
}
type Stored = Awaited<ReturnType<typeof openSettings>>;

/** The event bus, its ring for replays and the webhooks (subscribed before anything emits); stops: the webhooks. */
async function startEvents(ctx: StartContext, { dataDir }: Stored) {
  const bus = new EventBus(ctx.logger);
  // webhooks subscribe before anything emits (recovered jobs, discovered printers); deliveries are `<bootId>.<event id>`
  const bootId = randomUUID();
  const ring = new EventRing(bus);
  const webhooks = await Webhooks.open({
    dir: join(dataDir, 'webhooks'), bootId, bus, policy: ctx.options.webhooks, bounds: DEFAULT_OUTBOX_BOUNDS, post: httpPost, now: Date.now, random: Math.random, logger: ctx.logger,
  });
  ctx.started.push('webhooks', () => webhooks.close());
  return { bus, bootId, ring, webhooks };
}
type Events = Awaited<ReturnType<typeof startEvents>>;

/**
 * The printer kinds (USB bus, mDNS browsing), the registry, the renderer, one runtime per printer, their status cache and
 * monitor; stops: the monitor, the device watch, the renderer, the kinds.
 */
function startPrinting(ctx: StartContext, { settings }: Stored, { bus, webhooks }: Events, hardware: DaemonHardware) {
  const { options, logger, started, warnings } = ctx;
  // the registry is made from the kinds' discovery sources; their look-ups of known printers reach it through this holder
  const known: { registry: PrinterRegistry | null } = { registry: null };
  const printerAt = (path: string) => known.registry?.find(path) ?? null;
  const kindDeps: KindDeps = { timeouts: options.timeouts, mdns: options.mdns, printerAt, logger, hardware, warn: (line) => warnings.push(line) };
  // each kind opens what it owns (the USB bus and its interface claims) once; stopped after the spooler is done with it
  const kinds = startKinds(kindDeps);
  started.push('printer kinds', () => stopKinds(kinds));
  const sources: DiscoverySource[] = [...kinds.values()].flatMap((session) => session.discovery);
  const registry = new PrinterRegistry({
    settings,
    sources,
    locate: locateManual,
    pathFromUri,
    probeContent: (connection) => servingKind(connection).probeContent!(connection, kindDeps),
    reportedDpi,
    logger,
  });
  known.registry = registry;
  const renderer = createRenderService({ workers: () => renderWorkersOf(settings.value), startPool: renderPoolStarter({ maxQueue: 64, jobTimeoutMs: 30_000, logger }) });
  // a changed worker count retires the running pool once its renders are done
  started.push('renderer', () => renderer.close());
  started.push('renderer resizing', settings.onChange(renderer.resize));
  const render = hardware.render ? hardware.render(renderer.render) : renderer.render;
  let status: StatusCache | null = null;
  const store = new JobStore({ retentionMs: HOUR_MS, maxRecords: 10_000 });
  const runtimes = new PrinterRuntimes({
    findPrinter: (path) => registry.find(path),
    openDriver: (printer) => kinds.get(kindOf(printer).name)!.openDriver(printer, languageOf(printer)),
    languageOf: (printer) => languageOf(printer).name,
    mayReturn: (path) => PRINTER_KINDS.some((kind) => kind.mayReturn?.(path) ?? false),
    prepare: createFilters(render),
    bus,
    logger,
    holdRetryMs: 2000,
    maxHoldMs: HOUR_MS,
    now: Date.now,
    onJobEnded: (job) => {
      store.settle(job);
      status?.invalidate(job.printer);
    },
    onJobPrinted: (job) => store.settle(job),
    onDetails: (path, details) => registry.setDetails(path, details),
    printed: { pollMs: options.printedPollMs, maxFollowMs: HOUR_MS / 2 },
  });
  const statusNow = new StatusCache({ probe: (path) => runtimes.of(path).status(), budgetMs: 1000, ttlMs: 2000, onChange: statusEvent(bus) });
  status = statusNow;
  started.push('device watch', watchDevice({ registry, status: statusNow, settings, bus }));
  const demand = new StatusDemand(options.monitorIntervalMs, [() => webhooks.list().some((w) => takesPrinterStatus(w.types))]);
  const monitor = new PrinterMonitor({
    wanted: () => demand.wanted(),
    printers: () => registry.list().map((p) => p.path),
    probe: (path) => {
      statusNow.invalidate(path);
      return statusNow.get(path);
    },
    transferring: (path) => runtimes.of(path).transferring,
    intervalMs: () => demand.intervalMs(),
    logger,
  });
  monitor.start();
  started.push('printer monitor', () => monitor.stop());
  return { kindDeps, sources, registry, render, store, runtimes, status: statusNow, demand };
}
type Printing = ReturnType<typeof startPrinting>;

/**
 * The disk spool and the spooler, then discovery (the sources start-up waits for) and the spooled jobs recovered;
 * stops: discovery, then the spooler (5 s for jobs in progress).
 */
async function startSpooling(ctx: StartContext, { dataDir, settings }: Stored, { registry, runtimes, store, sources }: Printing) {
  const { options, logger, started } = ctx;
  const roots = () => allowedRoots({ dataDir, shareRoot: options.shareRoot, sharePaths: settings.value.shares.map((s) => s.sharePath) });
  const loadDocument = documentLoader(() => ({ timeoutMs: 30_000, maxRedirects: 5, maxBytes: settings.value.maxBodyBytes }), roots);
  const spoolDir = join(dataDir, 'spool');
  const spool = new DiskSpool(spoolDir, spoolLimit(spoolDir), logger);
  started.push('disk spool', () => spool.close());
  const keys = await KeyJournal.open(join(spoolDir, 'keys.log'), { lifetimeMs: HOUR_MS, maxKeys: 10_000, now: Date.now }, logger);
  started.push('idempotency keys', () => keys.close());
  const spooler = new Spooler({
    store,
    spool,
    keys,
    runtimes,
    findPrinter: (path) => registry.find(path),
    kindOf,
    loadDocument,
    logger,
    maxUnfinished: MAX_UNFINISHED_JOBS,
  });
  started.push('spooler', () => spooler.close(5000));
  started.push('discovery', () => Promise.all(sources.map((source) => source.stop?.())));
  await startDiscovery(registry, sources, ctx.warnings);
  const recovered = spooler.recover();
  if (recovered > 0) logger.info('spooled jobs recovered', { count: recovered });
  return { roots, loadDocument, spool, spooler, store };
}
type Spooling = Awaited<ReturnType<typeof startSpooling>>;

/** RAUC's status and the update manager (an update the last run left rebooting gets its verdict); stops: the updates. */
function startUpdates(ctx: StartContext, { dataDir }: Stored, { bus }: Events, { store }: Spooling) {
  const { options, logger } = ctx;
  const build = buildInfo();
  const rauc = new RaucStatus({ command: options.rauc, run: execRunner, timeoutMs: RAUC_TIMEOUT_MS });
  const updates = new UpdateManager({
    store: new UpdateStore(join(dataDir, 'system')),
    rauc: new RaucClient({ command: options.rauc, run: execRunner, runLines: spawnLines, timeoutMs: RAUC_TIMEOUT_MS }),
    status: () => rauc.read(),
    freeBytes: statfsFreeBytes,
    requestReboot: fifoRebootRequest(options.systemRequests),
    sealBundle: options.sealedBundleDir ? helperSeal(options.systemRequests, options.sealedBundleDir) : inPlace,
    gateReport: gateReportFile(options.gateReport),
    // RAUC's post-install handler names the slot on trial beside the gate's report (/data/rauc/trial)
    trialSlot: trialSlotFile(join(dirname(options.gateReport), 'trial')),
    jobsIdle: () => store.unfinished() === 0,
    emit: (record) => void bus.emit('system.update', { ...record }),
    version: build.version,
    logger,
    now: Date.now,
    ...UPDATE_TIMINGS,
  });
  // an update the last run left rebooting gets its verdict (succeeded or rolled-back) here, in the background
  updates.resume();
  ctx.started.push('updates', () => updates.stop());
  return { build, version: build.version, rauc, updates };
}
type Updates = ReturnType<typeof startUpdates>;

/** The JSON route table (the openapi route is added with the HTTP server); starts nothing. */
function apiRoutes(ctx: StartContext, stored: Stored, { bus, webhooks }: Events, printing: Printing, spooling: Spooling, { build, rauc, updates }: Updates, fleet: { bridge: FleetBridge | null }): Route[] {
  const { options, warnings } = ctx;
  const { settings, storage, fleetSettings, dataDir } = stored;
  const { registry, status, kindDeps, render } = printing;
  const { spooler, roots, loadDocument, store } = spooling;
  const system = cachedSystemInfo();
  const fleetWarnings = () => [...warnings, ...(fleet.bridge?.warnings() ?? [])];
  return [
    ...healthRoutes(build.version),
    ...statusRoutes(async () => {
      const storageWarnings = await storage.check();
      const all = () => [...fleetWarnings(), ...storageWarnings];
      const deviceStatus = readDeviceStatus({
        system, build, deviceId: () => settings.value.deviceId, hostname: () => settings.value.hostname ?? null, extensions: () => settings.value.extensions, run: execRunner, warnings: all,
      });
      return withFleet(deviceStatus, () => fleet.bridge?.status());
    }),
    ...setupRoutes(settings),
    ...systemRoutes({ read: () => rauc.read(), updates, fromFleet: () => settings.value.updates?.fromFleet === true }),
    ...printerRoutes({ registry, status }),
    ...languageRoutes(),
    ...printRoutes({
      registry,
      spooler,
      roots,
      testDocument: async (printer) => {
        const doc = await kindOf(printer).testDocument(printer, { deviceId: settings.value.deviceId, printerPath: printer.path, printedAt: new Date() }, kindDeps);
        return { title: doc.title, data: doc.data, document: { source: { kind: 'inline' }, format: doc.format, contentType: doc.contentType } };
      },
    }),
    ...previewRoutes({ registry, roots, loadDocument, render, languageOf: (printer) => languageOf(printer).name }),
    ...jobRoutes(spooler, store),
    ...settingsRoutes({ settings, registry }),
    ...shareRoutes(settings, { shareRoot: options.shareRoot, dataDir }),
    ...extensionRoutes(settings),
    ...webhookRoutes(webhooks),
    ...fleetRoutes({
      settings: fleetSettings,
      apply: (previous) => fleet.bridge?.reconfigure(previous) ?? Promise.resolve(),
      changed: () => void bus.emit('device.settings', { changed: ['fleet'] }),
    }),
  ];
}

/**
 * The keyless doors' shares (memory budget, descriptor gate, the raw ports' waiting line), the IPP service, and the
 * HTTP server on its HTTP port and, when set, its HTTPS port; stops: the key watch, the server, the IPP job table.
 */
async function startHttp(ctx: StartContext, { dataDir, settings, storage }: Stored, { bootId, ring }: Events, printing: Printing, { spool, spooler, store }: Spooling, routes: Route[], version: string) {
  const { options, logger, started, warnings, announce } = ctx;
  const { registry, runtimes, status, demand } = printing;
  let httpPort = 0;
  // every byte held for clients, whichever door: at most one request's worth (the body limit) in all
  const budget = new MemoryBudget(() => settings.value.maxBodyBytes);
  // raw-port jobs that find the spooler full wait in one line, their connections open, until it has room
  const rawLine = new SpoolerLine({ waitMs: RAW_JOB_WAIT_MS, retryMs: RAW_JOB_RETRY_MS, hasRoom: () => spool.hasRoom() && store.unfinished() < MAX_UNFINISHED_JOBS });
  // the keyless doors together keep to their share of the descriptors, so the API always has its own; when they are
  // full, the connection of the oldest job waiting in that line is reset to make room
  const doorLimits = keylessDoorLimits(descriptorLimit());
  const doors = new ConnectionGate(doorLimits, null, () => rawLine.reclaim());
  const ippJobs = new IppJobTable();
  started.push('IPP job table', () => ippJobs.close());
  const ipp = new IppService({
    operations: new IppOperations({
      jobs: ippJobs,
      submit: (sub, printer) => spooler.submit(sub, [printer], printer.path),
      record: (jobId) => spooler.get(jobId),
      cancel: (jobId) => void spooler.cancel(jobId),
      languageOf: (printer) => languageOf(printer).name,
      status: (path) => status.get(path),
      held: (path) => runtimes.of(path).heldReadiness,
      identify: (printer) => logger.info('Identify-Printer', { printer: printer.path }),
      deviceId: () => settings.value.deviceId,
      documentWaitMs: 60_000,
      startedAt: new Date(),
      now: () => new Date(),
      logger,
    }),
    findShared: (id) => registry.list().find((p) => p.id === id && p.share?.ipp === true) ?? null,
    webUrl: (hostName) => `http://${hostName}:${httpPort}`,
    logger,
  });
  let openApi: Record<string, unknown> | undefined;
  routes.push(openApiRoute(() => (openApi ??= buildOpenApi(routes, version, [EVENTS_SOCKET_DOC]))));

  const webConsole = options.console ? await consoleMount({ dir: options.consoleDir }) : null;
  if (options.console && !webConsole) warnings.push('web console not built: run npm run build');
  const server = new HttpServer({
    uws: loadUws({ nativeDir: options.nativeDir, mainScript: process.argv[1] }),
    afterLargeBody: collectGarbageSoon,
    routes,
    auth: new ApiAuth(() => settings.value.apiKey, new FailureLimiter({ maxFailures: 20, windowMs: 60_000 })),
    policy: { maxBodyBytes: () => settings.value.maxBodyBytes, allowedOrigins: () => settings.value.allowedOrigins },
    budget,
    logger,
    sockets: [eventsSocket(ring, bootId, demand)],
    statics: webConsole ? [webConsole] : [],
    ipp: { handle: (printerId, body, origin) => ipp.handle(printerId, body, origin), icon: lazyIcon(), gate: new ConnectionGate(IPP_LIMITS, doors), busy: busyAnswer, maxConnections: doorLimits.total },
  });
  // sessions do not outlive their key: a new API key closes the WebSockets the old one opened (4401, as a wrong key)
  started.push('HTTP server', () => server.close());
  started.push('key watch', settings.onChange(closeOnNewKey(settings, server)));
  httpPort = await server.listen(options.host, options.port);
  announce(`listening on http://${options.host}:${httpPort}`);
  if (!settings.claimed) announce(claimLine(options.host, httpPort, webConsole !== null));
  let httpsPort: number | null = null;
  if (options.httpsPort !== null) {
    const tlsPort = options.httpsPort;
    const tlsPair = () => ensureTlsPair(dataDir, `printproxy-${settings.value.deviceId}.local`, options.tlsCert && options.tlsKey ? { certFile: options.tlsCert, keyFile: options.tlsKey } : undefined);
    const listenTls = async (tls: TlsPair) => {
      httpsPort = await server.listenTls(options.host, tlsPort, tls);
      announce(`listening on https://${options.host}:${httpsPort}`);
    };
    // a certificate that cannot be stored leaves HTTPS off until it can: retried with the other pending writes
    await tlsPair().then(listenTls, (err: unknown) => storage.retryLater('TLS certificate (HTTPS is off)', err, async () => listenTls(await tlsPair())));
  }
  return { server, httpPort, httpsPort: () => httpsPort, budget, doors, rawLine };
}
type Http = Awaited<ReturnType<typeof startHttp>>;

/** The shared printers' raw ports, kept in step with the settings and the printers; stops: the watches, then the ports. */
async function startRawPorts(ctx: StartContext, { settings }: Stored, { registry, runtimes }: Printing, { spooler }: Spooling, { budget, doors, rawLine }: Http): Promise<void> {
  const { options, logger, started, warnings } = ctx;
  const rawPorts = new RawPorts({
    host: options.host,
    findPrinter: (path) => registry.find(path),
    languageOf: (printer) => languageOf(printer).name,
    submit: async (printer, data, title, from) => {
      const format = languageOf(printer).nativeFormat;
      const document = { source: { kind: 'inline' as const }, format, contentType: format } as const;
      await spooler.submit({ document, data, title, source: from, wait: false, options: {}, idempotencyKey: null }, [printer], printer.path);
    },
    ask: (path, query) => runtimes.of(path).hostQuery(query.command, query.complete),
    maxBytes: () => settings.value.maxBodyBytes,
    budget,
    doors,
    line: rawLine,
    idleMs: 10_000,
    afterLarge: collectGarbageSoon,
    warn: (line) => {
      warnings.push(line);
      logger.warn(line);
    },
    logger,
  });
  const syncRawPorts = () => void rawPorts.sync(registry.list());
  started.push('raw ports', () => rawPorts.close());
  started.push('raw port settings watch', settings.onChange(syncRawPorts));
  started.push('raw port printers watch', registry.onChange(syncRawPorts));
  await rawPorts.sync(registry.list());
}

/** mDNS: the device and its shared printers advertised (when mDNS is on); stops: the watches, then the advertiser. */
function startAdvertising(ctx: StartContext, { settings }: Stored, { registry }: Printing, ports: { ippPort: number | null; httpPort: number; httpsPort: number | null }): void {
  const { options, logger, started, warnings } = ctx;
  const advertiser = options.mdns ? advertise(settings.value.deviceId, ports.httpPort, ports.httpsPort, warnings, logger) : null;
  started.push('mDNS advertiser', () => advertiser?.stop());
  const deviceServices = advertiser?.services ?? [];
  const advertisePrinters = () => {
    const all = { ...ports, deviceId: settings.value.deviceId, hostName: `printproxy-${settings.value.deviceId}.local` };
    advertiser?.update([...deviceServices, ...printerServices(registry.list(), (p) => languageOf(p).name, all)]);
  };
  advertisePrinters();
  if (advertiser) {
    started.push('advertised settings watch', settings.onChange(advertisePrinters));
    started.push('advertised printers watch', registry.onChange(advertisePrinters));
  }
}

/** The fleet's MQTT bridge over the same routes (a warning when it cannot open); stops: the bridge. */
async function startFleet(ctx: StartContext, { fleetDir, fleetSettings, settings }: Stored, { bus, bootId }: Events, { spooler }: Spooling, routes: Route[], version: string): Promise<FleetBridge | null> {
  const { logger } = ctx;
  const fleet = await openFleet({
    dir: fleetDir, settings: fleetSettings, dispatcher: new ApiDispatcher(routes, logger), bus, job: (jobId) => spooler.get(jobId),
    maxBodyBytes: () => settings.value.maxBodyBytes, connect: mqttConnect, bootId, version, logger, now: Date.now, random: Math.random,
  }, ctx.warnings);
  fleet?.start();
  ctx.started.push('fleet bridge', () => fleet?.stop());
  return fleet;
}

/** The start-up line of an unclaimed device: where to set its first API key (the console's page, or the route). */
function claimLine(host: string, port: number, console: boolean): string {
  const anyAddress = host === '0.0.0.0' || host === '::' || host === '';
  const address = anyAddress ? lanAddress() : host;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return console ? `open ${url}/ to set the API key` : `no API key is set: POST ${url}/api/v1/setup with {"apiKey":"…"} to set it`;
}

/** The shared printers' icon, drawn and deflated at its first request rather than at start-up. */
function lazyIcon(): () => Buffer {
  let png: Buffer | undefined;
  return () => (png ??= printerIconPng());
}

/**
 * MQTT.js `connect`, its module loaded at the first connection: a device without fleet settings never loads it
 * (about 500 KB of code, some 25 ms of start-up and 1-2 MiB of heap).
 */
const mqttConnect: MqttConnect = (url, options) => (require('mqtt') as typeof import('mqtt')).connect(url, options);

/** Opens the fleet bridge; one that cannot open its files is a warning in GET /status, and the daemon serves without it. */
async function openFleet(deps: FleetBridgeDeps, warnings: string[]): Promise<FleetBridge | null> {
  try {
    return await FleetBridge.open(deps);
  } catch (err) {
    const line = `fleet unavailable: ${(err as Error).message}`;
    warnings.push(line);
    deps.logger.warn(line);
    return null;
  }
}

/** The status content with `fleet` added (when the bridge is up). */
function withFleet(status: DeviceStatus | Promise<DeviceStatus>, fleet: () => FleetStatus | undefined): DeviceStatus | Promise<DeviceStatus> {
  const add = (s: DeviceStatus): DeviceStatus => {
    const f = fleet();
    return f ? { ...s, fleet: f } : s;
  };
  return status instanceof Promise ? status.then(add) : add(status);
}

/** The kind that addresses new manual printers at `connection`; a connection no kind serves is a 400. */
function servingKind(connection: Parameters<typeof kindServing>[0]) {
  const kind = kindServing(connection);
  if (!kind?.probeContent) throw new AppError('INVALID_REQUEST', `connection.protocol ${connection.protocol ?? ''} cannot be added by hand`);
  return kind;
}

/** A settings listener that closes the key-opened WebSockets with 4401 when the API key changed. */
function closeOnNewKey(settings: SettingsStore, server: HttpServer): () => void {
  let key = settings.value.apiKey;
  return () => {
    if (settings.value.apiKey === key) return;
    key = settings.value.apiKey;
    server.closeKeyedSockets(4401, 'API key changed');
  };
}

/** Opens the IPP port; a port that cannot be opened is a warning in GET /status, and the API listeners still answer IPP. */
async function listenIpp(server: HttpServer, host: string, port: number, warnings: string[], logger: Logger): Promise<number | null> {
  try {
    return await server.listenIpp(host, port);
  } catch (err) {
    const line = `IPP port ${port} unavailable: ${(err as Error).message}`;
    warnings.push(line);
    logger.warn(line);
    return null;
  }
}

/** First scan (in the background: start-up does not wait for mDNS), then watching; failures become warnings in GET /status. */
/** Scans the sources start-up waits for (the USB bus: spooled jobs must find their printers), starts the others' scans, then watching. */
async function startDiscovery(registry: PrinterRegistry, sources: DiscoverySource[], warnings: string[]): Promise<void> {
  warnings.push(...(await registry.discover((s) => s.awaitedAtStart === true)).warnings);
  void registry.discover((s) => s.awaitedAtStart !== true).then((report) => warnings.push(...report.warnings));
  for (const source of sources) {
    try {
      await source.start?.((event) => registry.apply(source.name, event));
    } catch (err) {
      warnings.push(`${source.name} watching failed: ${(err as Error).message}`);
    }
  }
}

/** Advertises the device as `printproxy-<id>.local` with `_http._tcp` (and `_https._tcp`); a failure is a warning. */
function advertise(deviceId: string, httpPort: number, httpsPort: number | null, warnings: string[], logger: Logger): MdnsAdvertiser {
  const name = `printproxy-${deviceId}`;
  const txt = { path: '/api/v1', id: deviceId };
  const advertiser = new MdnsAdvertiser({
    hostName: name,
    address: lanAddress(),
    services: [{ type: '_http._tcp', instance: name, port: httpPort, txt }, ...(httpsPort ? [{ type: '_https._tcp', instance: name, port: httpsPort, txt }] : [])],
    logger,
  });
  try {
    advertiser.start();
  } catch (err) {
    warnings.push(`mDNS advertising failed: ${(err as Error).message}`);
  }
  return advertiser;
}
