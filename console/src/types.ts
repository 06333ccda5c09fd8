// Shapes of the API answers the console reads (a subset of openapi.json).

/** A printer as GET /printers returns it. */
export interface Printer {
  id: string;
  path: string;
  model?: string;
  content: 'raw' | 'pdf' | 'zpl';
  connection: { type: 'network' | 'usb'; host?: string; port?: number; protocol?: string; resourcePath?: string; serialNumber?: string };
  status: 'online' | 'offline' | 'error' | 'unknown';
  statusReasons: string[];
  discovered: boolean;
  tags: string[];
  dpi?: number;
  dither?: boolean;
  /** Sharing over IPP Everywhere and a raw port (printer-sharing.md). */
  share?: { ipp: boolean; rawPort: number | null };
  paperWidth?: 58 | 80;
  capabilities?: { makeAndModel?: string; colorSupported?: boolean; documentFormatsSupported?: string[]; mediaSupported?: string[]; sidesSupported?: string[]; copiesSupported?: [number, number] };
}

/** A job record (GET /jobs). */
export interface Job {
  jobId: string;
  printer: string;
  target: string;
  title: string;
  state: 'queued' | 'printing' | 'completed' | 'failed';
  error: string | null;
  createdAt: string;
  completedAt: string | null;
  printedAt?: string | null;
}

/** GET /status. */
export interface DeviceStatus {
  uptime: number;
  version: string;
  totalMemory: number;
  freeMemory: number;
  ipAddress: string;
  hostname: string;
  domain: string;
  deviceId: string;
  extensions: Array<{ name: string; instances: Array<{ id: number; active: boolean; fqdn: string; overlay_ip: string }> }>;
  warnings: string[];
  /** The fleet bridge's state (fleet.md); absent on a daemon without it. */
  fleet?: FleetStatus;
}

/** `fleet` in GET /status. */
export interface FleetStatus {
  state: 'disabled' | 'connecting' | 'connected' | 'error';
  brokerUrl: string | null;
  connectedSince: string | null;
  lastError: string | null;
  pendingEvents: number;
}

/** GET/PUT /fleet; `key` and `password` read `********` when set, and sent back so they keep the stored value. */
export interface FleetSettings {
  enabled: boolean;
  brokerUrl: string | null;
  deviceId: string;
  topicPrefix: string;
  username: string | null;
  password: string | null;
  ca: string | null;
  cert: string | null;
  key: string | null;
  keepaliveSec: number;
  sessionExpirySec: number;
  inlineMaxBytes: number;
}

/** GET /settings. */
export interface Settings {
  alias: string;
  subDomain: string;
  allowedOrigins: string[];
  maxBodyBytes: number;
  renderWorkers?: number | null;
  apiKey: string;
}

/** A share (GET /shares); `password` reads `********`. */
export interface Share {
  uuid: string;
  sharePath: string;
  alias: string;
  server: string;
  username: string;
  password: string;
  browsable: boolean;
}

/** One extension's settings (GET /extensions/settings); `clientSecret` reads `********`. */
export interface ExtensionSettings {
  name: string;
  enabled: boolean;
  instances: Array<{ id: number; oidcPath: string; clientId: string; clientSecret: string; target: string; logicalPrinterId: string; tag: string; startOnBoot: boolean }>;
}

/** A webhook (GET /webhooks). */
export interface Webhook {
  id: string;
  url: string;
  types: string[] | null;
  secret: string;
  pending: number;
  dropped: number;
  lastDelivery: { time: string; status: number | null; error: string | null; eventType: string } | null;
}

/** One event of /api/v1/events. */
export interface DeviceEvent {
  id: number;
  type: string;
  time?: string;
  data: any;
}
