// The one catalogue of errors: stable codes, the HTTP status and envelope message of each.

/** Every error code the API can answer with, mapped to its HTTP status and `result.message`. */
export const ERROR_CATALOGUE = {
  INVALID_REQUEST: { status: 400, message: 'Invalid request' },
  UNAUTHORIZED: { status: 401, message: 'Unauthorized' },
  PRINTER_NOT_FOUND: { status: 404, message: 'Printer not found' },
  JOB_NOT_FOUND: { status: 404, message: 'Job not found' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  SHARE_NOT_FOUND: { status: 404, message: 'Share not found' },
  PRINTER_EXISTS: { status: 409, message: 'Printer already exists' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Payload too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported media type' },
  TOO_MANY_REQUESTS: { status: 429, message: 'Too many requests' },
  INTERNAL: { status: 500, message: 'An error occurred.' },
  PRINT_FAILED: { status: 502, message: 'Print failed' },
  PRINTER_NOT_READY: { status: 503, message: 'Printer is not ready' },
  SPOOL_FAILED: { status: 507, message: 'Device cannot store the job' },
} as const;

/** A stable API error code; callers match on it, never on message text. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** An error meant for the HTTP client: code, specific text for `content.message`, optional content override. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  /** Replaces `{message}` as `result.content` when set (the 503 readiness object, for example). */
  readonly content: unknown;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: { content?: unknown; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.content = options.content;
    this.headers = options.headers ?? {};
  }

  /** HTTP status for this error, from the catalogue. */
  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }
}

/** Failure codes of talking to a printer; stored as the job's `error` prefix-free text, matched by tests on `code`. */
export const DEVICE_ERROR_CODES = [
  'CONNECT_REFUSED',
  'CONNECT_TIMEOUT',
  'CONNECTION_RESET',
  'WRITE_TIMEOUT',
  'DEVICE_GONE',
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
] as const;

/** A stable code for a failure while delivering a job or querying a printer. */
export type DeviceErrorCode = (typeof DEVICE_ERROR_CODES)[number];

/** An error from a transport, renderer or fetcher; its message is what a job's `error` shows. */
export class DeviceError extends Error {
  readonly code: DeviceErrorCode;
  /** Bytes the printer accepted before the failure, when known. */
  readonly bytesSent: number | undefined;

  constructor(code: DeviceErrorCode, message: string, bytesSent?: number) {
    super(message);
    this.name = 'DeviceError';
    this.code = code;
    this.bytesSent = bytesSent;
  }
}

/** Wraps anything thrown into a DeviceError, keeping typed ones as they are. */
export function toDeviceError(err: unknown, fallback: DeviceErrorCode = 'IO'): DeviceError {
  if (err instanceof DeviceError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new DeviceError(fallback, message);
}
