// Shapes of the API answers the console reads (a subset of openapi.json); those with a schema are imported from it.

/** GET /settings. */
export interface Settings {
  alias: string;
  subDomain: string;
  allowedOrigins: string[];
  maxBodyBytes: number;
  renderWorkers?: number | null;
  apiKey: string;
  /** Who may start an update: `fromFleet` true lets the fleet (MQTT) POST /system/update with a URL. */
  updates: { fromFleet: boolean };
}

/** One event of /api/v1/events. */
export interface DeviceEvent {
  id: number;
  type: string;
  time?: string;
  data: any;
}
