// The one catalogue of errors: stable codes that callers match on. Only http/ maps a code to an HTTP status.

/** Codes of a request the device refuses or cannot carry out; http/error-status.ts gives each its HTTP answer. */
export const REQUEST_ERROR_CODES = [
  'INVALID_REQUEST',
  'UNAUTHORIZED',
  // a route this channel may not reach (credential writes over the fleet's MQTT)
  'FORBIDDEN',
  'PRINTER_NOT_FOUND',
  'JOB_NOT_FOUND',
  'NOT_FOUND',
  'SHARE_NOT_FOUND',
  'WEBHOOK_NOT_FOUND',
  'PRINTER_EXISTS',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'TOO_MANY_REQUESTS',
  'INTERNAL',
  'PRINT_FAILED',
  'PRINTER_NOT_READY',
  'SPOOL_FAILED',
  'QUEUE_FULL',
  'TOO_BUSY',
  'CHANGE_NOT_STORED',
  'NO_PREVIEW',
  'HEADERS_TOO_LARGE',
  'HTTP_VERSION_NOT_SUPPORTED',
] as const;

/** Failure codes of talking to a printer, rendering or fetching; a failed job keeps its code as `errorCode`. */
export const DEVICE_ERROR_CODES = [
  'CONNECT_REFUSED',
  'CONNECT_TIMEOUT',
  'CONNECTION_RESET',
  'WRITE_TIMEOUT',
  'DEVICE_GONE',
  // a USB printer that is absent or was disconnected (libusb's LIBUSB_*_NO_DEVICE)
  'NO_DEVICE',
  'ACCESS_DENIED',
  'DEVICE_BUSY',
  'PROTOCOL',
  'FETCH_FAILED',
  'RENDER_FAILED',
  'UNSUPPORTED_CONTENT',
  'CANCELED',
  'IO',
  'RENDER_QUEUE_FULL',
  'SPOOL_WRITE',
  'NOT_READY',
  'INTERRUPTED',
  'SHUTDOWN',
] as const;

/** A stable code for a refused or failed request. */
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];
/** A stable code for a failure while delivering a job or querying a printer. */
export type DeviceErrorCode = (typeof DEVICE_ERROR_CODES)[number];
/** Every code an error of this daemon can carry. */
export type ErrorCode = RequestErrorCode | DeviceErrorCode;

/** An error with a stable code and a specific text (for `content.message`); optional content replacing `{message}`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  /** Replaces `{message}` as `result.content` when set (the 503 readiness object, for example). */
  readonly content: unknown;
  /** Extra answer headers (`Retry-After`). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: { content?: unknown; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.content = options.content;
    this.headers = options.headers ?? {};
  }
}

/** An error from a transport, renderer or fetcher; its message is what a job's `error` shows, its code the job's `errorCode`. */
export class DeviceError extends AppError {
  declare readonly code: DeviceErrorCode;
  /** Bytes the printer accepted before the failure, when known. */
  readonly bytesSent: number | undefined;

  constructor(code: DeviceErrorCode, message: string, bytesSent?: number) {
    super(code, message);
    this.name = 'DeviceError';
    this.bytesSent = bytesSent;
  }
}

/** Wraps anything thrown into a DeviceError, keeping typed ones as they are. */
export function toDeviceError(err: unknown, fallback: DeviceErrorCode = 'IO'): DeviceError {
  if (err instanceof DeviceError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new DeviceError(fallback, message);
}

/** Codes of the fleet-side client (src/fleet/client/): it runs in an ERP's process, never behind the device's HTTP API. */
export const FLEET_CLIENT_ERROR_CODES = ['FLEET_CONNECT_FAILED', 'FLEET_TIMEOUT', 'FLEET_CLOSED', 'FLEET_BAD_ARGUMENT'] as const;

/** A stable code for a failure of the fleet-side client. */
export type FleetClientErrorCode = (typeof FLEET_CLIENT_ERROR_CODES)[number];

/** An error of the fleet-side client; callers match on `code`, the message says what it was waiting for. */
export class FleetClientError extends Error {
  readonly code: FleetClientErrorCode;

  constructor(code: FleetClientErrorCode, message: string) {
    super(message);
    this.name = 'FleetClientError';
    this.code = code;
  }
}
