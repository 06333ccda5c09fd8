// Minimal leveled logger writing one line per event to stderr; injected everywhere, never global.

/** Log sink: message plus optional structured fields. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

/** A log level name; `silent` drops everything. */
export type LogLevel = keyof typeof LEVELS;

/** Builds a logger that prints lines at or above `level` through `write` (stderr by default). */
export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const min = LEVELS[level];
  const emit = (name: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[name] < min) return;
    const extra = fields && Object.keys(fields).length > 0 ? ' ' + JSON.stringify(fields) : '';
    write(`${new Date().toISOString()} ${name} ${msg}${extra}`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** A logger that discards everything. */
export const silentLogger: Logger = createLogger('silent');
