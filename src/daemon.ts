// Composition root of the daemon: builds every object from options, starts them, stops them in reverse order.
import { resolve } from 'node:path';
import { buildInfo } from './build-info';
import type { DaemonOptions } from './cli';
import { readDeviceStatus } from './device/device-status';
import { execRunner } from './device/netbird-status';
import { cachedSystemInfo } from './device/system-info';
import { ensureTlsPair } from './device/tls-cert';
import { ApiAuth } from './http/auth';
import { buildOpenApi } from './http/openapi';
import { FailureLimiter } from './http/rate-limiter';
import type { Route } from './http/route';
import { extensionRoutes } from './http/routes/extensions';
import { openApiRoute } from './http/routes/openapi';
import { printerRoutes } from './http/routes/printers';
import { settingsRoutes } from './http/routes/settings';
import { shareRoutes } from './http/routes/shares';
import { statusRoutes } from './http/routes/status';
import { HttpServer } from './http/server';
import { loadUws } from './http/uws';
import type { Logger } from './log';
import { PrinterRegistry } from './printers/registry';
import { StatusCache } from './printers/status-cache';
import { SettingsStore } from './settings/settings-store';
import { createPrinterServices } from './printers/printer-services';
import type { UsbBackend } from './usb/usb-backend';

/** Where the daemon ended up listening. */
export interface RunningDaemon {
  httpPort: number;
  httpsPort: number | null;
  /** Stops accepting, finishes in-flight answers and queued writes, releases devices. */
  stop(): Promise<void>;
}

/** Hardware the daemon talks to, swappable by the caller (libusb on the device, a fake USB bus in tests). */
export interface DaemonHardware {
  /** Opens the USB bus; may throw when libusb cannot load (the daemon then runs without USB and says so). */
  usb: () => UsbBackend;
}

/** Starts the daemon; `announce` receives the lines meant for stdout (listening addresses, the new key). */
export async function startDaemon(options: DaemonOptions, logger: Logger, announce: (line: string) => void, hardware: DaemonHardware): Promise<RunningDaemon> {
  const dataDir = resolve(options.dataDir);
  const settings = new SettingsStore({ dataDir, seedApiKey: options.apiKey, logger });
  await settings.persist();
  if (settings.generatedApiKey) announce(`API key (shown once): ${settings.value.apiKey}`);

  const warnings: string[] = [];
  const usb = openUsb(hardware, warnings, logger);
  const services = createPrinterServices({ dataDir, settings, logger, mdns: options.mdns, timeouts: options.timeouts, usb, warnings });
  const registry = new PrinterRegistry({ settings, sources: services.sources, probeContent: services.probeContent, logger });
  const status = new StatusCache({ probe: (path) => services.liveStatus(registry.get(path)), budgetMs: 1000, ttlMs: 2000 });
  await services.start(registry, status);

  const build = buildInfo();
  const system = cachedSystemInfo();
  const routes: Route[] = [
    ...statusRoutes(() =>
      readDeviceStatus({
        system,
        build,
        deviceId: () => settings.value.deviceId,
        extensions: () => settings.value.extensions,
        run: execRunner,
        warnings: () => warnings,
      }),
    ),
    ...printerRoutes({ registry, status }),
    ...services.routes(),
    ...settingsRoutes({ settings, registry }),
    ...shareRoutes(settings),
    ...extensionRoutes(settings),
  ];
  let openApi: Record<string, unknown> | undefined;
  routes.push(openApiRoute(() => (openApi ??= buildOpenApi(routes, build.version))));

  const server = new HttpServer({
    uws: loadUws({ nativeDir: options.nativeDir, mainScript: process.argv[1] }),
    routes,
    auth: new ApiAuth(() => settings.value.apiKey, new FailureLimiter({ maxFailures: 20, windowMs: 60_000 })),
    policy: { maxBodyBytes: () => settings.value.maxBodyBytes, allowedOrigins: () => settings.value.allowedOrigins },
    logger,
  });
  const httpPort = await server.listen(options.host, options.port);
  announce(`listening on http://${options.host}:${httpPort}`);
  let httpsPort: number | null = null;
  if (options.httpsPort !== null) {
    const tls = await ensureTlsPair(dataDir, `printproxy-${settings.value.deviceId}.local`, options.tlsCert && options.tlsKey ? { certFile: options.tlsCert, keyFile: options.tlsKey } : undefined);
    httpsPort = await server.listenTls(options.host, options.httpsPort, tls);
    announce(`listening on https://${options.host}:${httpsPort}`);
  }
  await services.advertise(settings.value.deviceId, httpPort, httpsPort);

  return {
    httpPort,
    httpsPort,
    async stop() {
      await server.close();
      await services.stop();
      await settings.flush();
    },
  };
}

function openUsb(hardware: DaemonHardware, warnings: string[], logger: Logger): UsbBackend | null {
  try {
    return hardware.usb();
  } catch (err) {
    const line = `USB unavailable: ${(err as Error).message}`;
    warnings.push(line);
    logger.warn(line);
    return null;
  }
}
