// The one place that maps error codes to HTTP: the status and `result.message` of each stable code.
import { AppError, type ErrorCode } from '../errors';

/** HTTP status and envelope `result.message` of one error code. */
export interface HttpError {
  status: number;
  message: string;
}

const PRINT_FAILED: HttpError = { status: 502, message: 'Print failed' };

/** Every code's HTTP answer; a device failure that reaches a client is a failed print (502) unless listed apart. */
export const ERROR_STATUS: Record<ErrorCode, HttpError> = {
  INVALID_REQUEST: { status: 400, message: 'Invalid request' },
  UNAUTHORIZED: { status: 401, message: 'Unauthorized' },
  DEVICE_NOT_SET_UP: { status: 401, message: 'Unauthorized' },
  ALREADY_SET_UP: { status: 409, message: 'Device already set up' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Forbidden' },
  FORBIDDEN: { status: 403, message: 'Forbidden' },
  PRINTER_NOT_FOUND: { status: 404, message: 'Printer not found' },
  JOB_NOT_FOUND: { status: 404, message: 'Job not found' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  SHARE_NOT_FOUND: { status: 404, message: 'Share not found' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook not found' },
  PRINTER_EXISTS: { status: 409, message: 'Printer already exists' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Payload too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported media type' },
  TOO_MANY_REQUESTS: { status: 429, message: 'Too many requests' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request header fields too large' },
  HTTP_VERSION_NOT_SUPPORTED: { status: 505, message: 'HTTP version not supported' },
  INTERNAL: { status: 500, message: 'An error occurred.' },
  PRINT_FAILED,
  SPOOL_FULL: { status: 507, message: 'Device cannot store the job' },
  QUEUE_FULL: { status: 503, message: 'Device is busy' },
  TOO_BUSY: { status: 503, message: 'Device is busy' },
  SPOOL_WRITE: { status: 507, message: 'Device cannot store the job' },
  CHANGE_NOT_STORED: { status: 507, message: 'Device cannot store the change' },
  NOT_READY: { status: 503, message: 'Printer is not ready' },
  NO_PREVIEW: { status: 422, message: 'Preview not available' },
  SYSTEM_UNAVAILABLE: { status: 503, message: 'System status unavailable' },
  UPDATE_RUNNING: { status: 409, message: 'An update is running' },
  UPDATE_DOWNGRADE: { status: 409, message: 'Not newer than the installed version' },
  BUNDLE_REFUSED: { status: 422, message: 'Update bundle refused' },
  UPDATE_NO_ROOM: { status: 507, message: 'Device cannot store the bundle' },
  ROLLBACK_REFUSED: { status: 409, message: 'No good slot to roll back to' },
  REBOOT_FAILED: { status: 503, message: 'Reboot not possible' },
  CONNECT_REFUSED: PRINT_FAILED,
  CONNECT_TIMEOUT: PRINT_FAILED,
  CONNECTION_RESET: PRINT_FAILED,
  WRITE_TIMEOUT: PRINT_FAILED,
  DEVICE_GONE: PRINT_FAILED,
  NO_DEVICE: PRINT_FAILED,
  ACCESS_DENIED: PRINT_FAILED,
  DEVICE_BUSY: PRINT_FAILED,
  PROTOCOL: PRINT_FAILED,
  FETCH_FAILED: PRINT_FAILED,
  RENDER_FAILED: PRINT_FAILED,
  UNSUPPORTED_CONTENT: PRINT_FAILED,
  CANCELED: PRINT_FAILED,
  IO: PRINT_FAILED,
  RENDER_QUEUE_FULL: { status: 503, message: 'Device is busy' },
  INTERRUPTED: PRINT_FAILED,
  SHUTDOWN: { status: 503, message: 'Device is shutting down' },
};

/** The HTTP answer of anything thrown: its code's entry, or 500 for what carries no code (a bug). */
export function httpErrorOf(err: unknown): HttpError & { code: ErrorCode } {
  const code = err instanceof AppError ? err.code : 'INTERNAL';
  return { code, ...ERROR_STATUS[code] };
}
