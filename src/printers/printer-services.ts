// Assembles what depends on printer kinds: discovery sources, content probing, live status, print routes.
import type { DiscoverySource } from '../discovery/source';
import type { Route } from '../http/route';
import type { Logger } from '../log';
import type { ContentKind, CreatePrinterBody } from '../schemas/printer';
import type { SettingsStore } from '../settings/settings-store';
import type { PrinterRecord, PrinterRegistry } from './registry';
import { UNKNOWN_STATUS, type LiveStatus, type StatusCache } from './status-cache';

/** Inputs of the printer services. */
export interface PrinterServicesDeps {
  dataDir: string;
  settings: SettingsStore;
  logger: Logger;
  mdns: boolean;
  /** Subsystems that fail to start add a line here (shown in GET /status). */
  warnings: string[];
}

/** The printer-kind–specific half of the daemon. */
export interface PrinterServices {
  sources: DiscoverySource[];
  probeContent(connection: CreatePrinterBody['connection']): Promise<ContentKind>;
  liveStatus(printer: PrinterRecord): Promise<LiveStatus>;
  start(registry: PrinterRegistry): Promise<void>;
  routes(registry: PrinterRegistry, status: StatusCache): Route[];
  advertise(deviceId: string, httpPort: number, httpsPort: number | null): Promise<void>;
  stop(): Promise<void>;
}

/** Builds the printer services for this device. */
export function createPrinterServices(deps: PrinterServicesDeps): PrinterServices {
  void deps;
  return {
    sources: [],
    probeContent: async (connection) => (connection.protocol === 'tcp' ? 'raw' : 'pdf'),
    liveStatus: async () => UNKNOWN_STATUS,
    start: async () => undefined,
    routes: () => [],
    advertise: async () => undefined,
    stop: async () => undefined,
  };
}
