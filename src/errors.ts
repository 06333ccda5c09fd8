// The one catalogue of errors: stable codes that callers match on. Only http/ maps a code to an HTTP status.

/** Codes of a request the device refuses or cannot carry out; http/error-status.ts gives each its HTTP answer. */
export const REQUEST_ERROR_CODES = [
  'INVALID_REQUEST',
  'UNAUTHORIZED',
  // no API key is set yet: every keyed call is refused until POST /setup (or the setup file, or PRINTPROXY_API_KEY) sets one
  'DEVICE_NOT_SET_UP',
  // POST /setup once a key is set: the key is changed with POST /settings/api-key
  'ALREADY_SET_UP',
  'ORIGIN_NOT_ALLOWED',
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
  // the spool at its byte limit: the same 507 as a failed spool write (SPOOL_WRITE), a limit rather than an I/O error
  'SPOOL_FULL',
  // the same 503 answer for two causes a log must tell apart: too many unfinished jobs, or large bodies over the memory budget
  'QUEUE_FULL',
  'TOO_BUSY',
  'CHANGE_NOT_STORED',
  'NO_PREVIEW',
  'HEADERS_TOO_LARGE',
  'HTTP_VERSION_NOT_SUPPORTED',
  // `rauc status` exists but failed or answered something else than its JSON (GET /system)
  'SYSTEM_UNAVAILABLE',
  // POST /system/update while another update runs (or POST /system/rollback during one)
  'UPDATE_RUNNING',
  // an update bundle older than or equal to the booted slot's version, without allowDowngrade
  'UPDATE_DOWNGRADE',
  // a bundle that fails a check before anything is written to a slot: size, sha256, signature, compatible, version
  'BUNDLE_REFUSED',
  // the data partition lacks the room for the bundle
  'UPDATE_NO_ROOM',
  // POST /system/rollback when the other slot is not marked good
  'ROLLBACK_REFUSED',
  // the root helper could not be asked to reboot (its FIFO has no reader)
  'REBOOT_FAILED',
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
  // the job could not be stored on the device's flash (HTTP 507)
  'SPOOL_WRITE',
  // a printer's pre-flight said it cannot print now (paper out, head open…; HTTP 503 for the request)
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

  constructor(code: ErrorCode, detail: string, options: { content?: unknown; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.content = options.content;
    this.headers = options.headers ?? {};
  }
}

/** The check an update bundle failed (`content.check` of the refusal, the start of an update's `error`). */
export type BundleCheck = 'space' | 'size' | 'sha256' | 'signature' | 'compatible' | 'version' | 'downgrade' | 'download' | 'payload';

/**
 * An update bundle that failed `check`: UPDATE_DOWNGRADE for a downgrade, UPDATE_NO_ROOM for space, else BUNDLE_REFUSED;
 * its message starts with the check's name, and its content is `{ message, check }`.
 */
export class BundleCheckError extends AppError {
  constructor(readonly check: BundleCheck, detail: string) {
    const message = `${check}: ${detail}`;
    super(check === 'downgrade' ? 'UPDATE_DOWNGRADE' : check === 'space' ? 'UPDATE_NO_ROOM' : 'BUNDLE_REFUSED', message, { content: { message, check } });
  }
}

/** An error from a transport, renderer or fetcher; its message is what a job's `error` shows, its code the job's `errorCode`. */
export class DeviceError extends AppError {
  declare readonly code: DeviceErrorCode;
  /** Bytes the printer accepted before the failure, when known. */
  readonly bytesSent: number | undefined;

  constructor(code: DeviceErrorCode, message: string, bytesSent?: number) {
    super(code, message);
    this.bytesSent = bytesSent;
  }
}

/** Wraps anything thrown into a DeviceError, keeping typed ones as they are. */
export function toDeviceError(err: unknown, fallback: DeviceErrorCode = 'IO'): DeviceError {
  if (err instanceof DeviceError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new DeviceError(fallback, message);
}

/**
 * A render refused at once because `size` jobs run and `maxQueue` wait. Nothing retries it: the print job fails with this
 * message as its `error` (a `wait: true` request answers 502 Print failed); the HTTP request itself is not refused.
 */
export class RenderQueueFullError extends DeviceError {
  constructor(accepted: number) {
    super('RENDER_QUEUE_FULL', `render queue is full (${accepted} jobs accepted)`);
  }
}

/** A subclass of `Base` whose every error carries `code`, made from a message alone; `name` names it in logs. */
function fixedCode<Code, Instance extends Error>(Base: new (code: Code, message: string) => Instance, code: Code, name: string): new (message: string) => Instance {
  const Fixed = class extends (Base as new (code: Code, message: string) => Error) {
    constructor(message: string) {
      super(code, message);
      this.name = name;
    }
  };
  return Fixed as unknown as new (message: string) => Instance;
}

/** A printer's reply that is not a well-formed ZPL status answer (`~HS`, `~HQ`); the only error those parsers throw. */
export const ZplParseError = fixedCode(DeviceError, 'PROTOCOL', 'ZplParseError');

/** A USB GET_DEVICE_ID reply that holds no IEEE 1284 device ID; the only error that parser throws. */
export const DeviceIdError = fixedCode(DeviceError, 'PROTOCOL', 'DeviceIdError');

/** Bytes that are not a well-formed IPP message: a printer's answer (PROTOCOL), or a request the IPP door answers client-error-bad-request. */
export const IppDecodeError = fixedCode(DeviceError, 'PROTOCOL', 'IppDecodeError');

/** A request body that is not chunked framing (RFC 9112 7.1): its framing, and the connection's, is unknown from there on. */
export const ChunkedFramingError = fixedCode(AppError, 'INVALID_REQUEST', 'ChunkedFramingError');

/**
 * An IPP answer other than success from the IPP door: `status` is the IPP status-code (RFC 8011 13.1) the client
 * gets with `message` as its status-message; the code is INVALID_REQUEST for a client-error (0x04xx), else INTERNAL.
 */
export class IppFault extends AppError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(status < 0x0500 ? 'INVALID_REQUEST' : 'INTERNAL', message);
  }
}

/** Codes of a process that cannot start or was started wrongly (command line, runtime, native cache): never behind HTTP. */
export const PROCESS_ERROR_CODES = ['USAGE', 'UNSUPPORTED_RUNTIME', 'NATIVE_CACHE'] as const;

/** A stable code for a failure before the daemon serves (its exit status and message say it; no HTTP answer exists). */
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

/** A failure of the process itself, before anything is served: the CLI prints the message and exits non-zero. */
export class ProcessError extends Error {
  readonly code: ProcessErrorCode;

  constructor(code: ProcessErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/** A bad command line (`printproxyd` flags, `printproxyd render`); the message is shown with the usage, exit 2. */
export const UsageError = fixedCode(ProcessError, 'USAGE', 'UsageError');

/** The running Node has no uWS build here; the message names its version, ABI and arch, and what would work. */
export const UnsupportedRuntimeError = fixedCode(ProcessError, 'UNSUPPORTED_RUNTIME', 'UnsupportedRuntimeError');

/** The native cache cannot be used: a noexec mount, or a folder that cannot be written. The message says which. */
export class NativeCacheError extends ProcessError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('NATIVE_CACHE', message, options);
  }
}

/** The native cache folder cannot be created (a read-only partition, say): a NativeCacheError a temporary folder can stand in for. */
export class NativeFolderError extends NativeCacheError {}

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
