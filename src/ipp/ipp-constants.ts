// IPP numbers both sides speak (RFC 8011, PWG 5100.11/5100.14): operations, status codes, enums; the client (ipp/)
// and the shared printers (sharing/) take them from here.

/** Operations the client sends and the shared printers support, by code (RFC 8011 5.4.15). */
export const IPP_OP = {
  printJob: 0x0002,
  validateJob: 0x0004,
  createJob: 0x0005,
  sendDocument: 0x0006,
  cancelJob: 0x0008,
  getJobAttributes: 0x0009,
  getJobs: 0x000a,
  getPrinterAttributes: 0x000b,
  cancelMyJobs: 0x0039,
  closeJob: 0x003b,
  identifyPrinter: 0x003c,
} as const;

/** Status codes a shared printer answers and the client reads (RFC 8011 13.1). */
export const IPP_STATUS = {
  ok: 0x0000,
  okIgnoredOrSubstituted: 0x0001,
  okConflicting: 0x0002,
  badRequest: 0x0400,
  forbidden: 0x0401,
  notAuthenticated: 0x0402,
  notAuthorized: 0x0403,
  notPossible: 0x0404,
  timeout: 0x0405,
  notFound: 0x0406,
  documentFormatNotSupported: 0x040a,
  attributesNotSupported: 0x040b,
  charsetNotSupported: 0x040d,
  compressionNotSupported: 0x040f,
  internalError: 0x0500,
  operationNotSupported: 0x0501,
  versionNotSupported: 0x0503,
  notAcceptingJobs: 0x0506,
  busy: 0x0507,
} as const;

/** The RFC 8011 keyword of each status code above. */
export const IPP_STATUS_NAMES: Record<number, string> = {
  [IPP_STATUS.ok]: 'successful-ok',
  [IPP_STATUS.okIgnoredOrSubstituted]: 'successful-ok-ignored-or-substituted-attributes',
  [IPP_STATUS.okConflicting]: 'successful-ok-conflicting-attributes',
  [IPP_STATUS.badRequest]: 'client-error-bad-request',
  [IPP_STATUS.forbidden]: 'client-error-forbidden',
  [IPP_STATUS.notAuthenticated]: 'client-error-not-authenticated',
  [IPP_STATUS.notAuthorized]: 'client-error-not-authorized',
  [IPP_STATUS.notPossible]: 'client-error-not-possible',
  [IPP_STATUS.timeout]: 'client-error-timeout',
  [IPP_STATUS.notFound]: 'client-error-not-found',
  [IPP_STATUS.documentFormatNotSupported]: 'client-error-document-format-not-supported',
  [IPP_STATUS.attributesNotSupported]: 'client-error-attributes-or-values-not-supported',
  [IPP_STATUS.charsetNotSupported]: 'client-error-charset-not-supported',
  [IPP_STATUS.compressionNotSupported]: 'client-error-compression-not-supported',
  [IPP_STATUS.internalError]: 'server-error-internal-error',
  [IPP_STATUS.operationNotSupported]: 'server-error-operation-not-supported',
  [IPP_STATUS.versionNotSupported]: 'server-error-version-not-supported',
  [IPP_STATUS.notAcceptingJobs]: 'server-error-not-accepting-jobs',
  [IPP_STATUS.busy]: 'server-error-busy',
};

/** job-state values (RFC 8011 5.3.7). */
export const JOB_STATE = { pending: 3, pendingHeld: 4, processing: 5, processingStopped: 6, canceled: 7, aborted: 8, completed: 9 } as const;

/** printer-state values (RFC 8011 5.4.11). */
export const PRINTER_STATE = { idle: 3, processing: 4, stopped: 5 } as const;

/** Resolution units: dots per inch. */
export const DPI_UNITS = 3;
