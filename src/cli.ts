// Command-line flags and environment of printproxyd (decisions.md "Start-up flags and environment").
import { UsageError } from './errors';

/** Daemon options after flags and env are merged. */
export interface DaemonOptions {
  dataDir: string;
  host: string;
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** HTTPS port; 0 picks a free one; null turns HTTPS off. */
  httpsPort: number | null;
  /** IPP port of shared printers (printer-sharing.md); 0 picks a free one; null (--no-ipp) turns the IPP listener off. */
  ippPort: number | null;
  tlsCert?: string;
  tlsKey?: string;
  mdns: boolean;
  /** The API key in force at every start (env PRINTPROXY_API_KEY); without it, the stored one, or none: the device is unclaimed. */
  apiKey?: string;
  /** A setup file to apply once at start, then remove (`--setup-file`, env PRINTPROXY_SETUP_FILE; device-image.md "Setup file"). */
  setupFile?: string;
  /** The rauc executable GET /system asks (`--rauc`, env PRINTPROXY_RAUC; default `rauc` from PATH). */
  rauc: string;
  /** The text file where the root health gate writes why it rolled back (`--gate-report`, env PRINTPROXY_GATE_REPORT; default /data/rauc/gate-failure). */
  gateReport: string;
  /** The FIFO of the root helper that reboots (`--system-requests`, env PRINTPROXY_SYSTEM_REQUESTS; default /run/printproxyd/system-requests). */
  systemRequests: string;
  /** Where the root helper puts a checked bundle for RAUC (`--sealed-bundle-dir`, env PRINTPROXY_SEALED_BUNDLE_DIR); unset: installed in place. */
  sealedBundleDir?: string;
  nativeDir?: string;
  /** Folder under which share mount points must be real mounts for local files to be read through them (default /mnt/shares). */
  shareRoot: string;
  /** Serve the web console at `/` (`--no-console`, env PRINTPROXY_CONSOLE=0, turns it off). */
  console: boolean;
  /** A built console folder to serve instead of the embedded one (`--console-dir`, env PRINTPROXY_CONSOLE_DIR). */
  consoleDir?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Byte-stream transport limits (env PRINTPROXY_TCP_CONNECT_TIMEOUT_MS, _IDLE_TIMEOUT_MS, _QUERY_TIMEOUT_MS). */
  timeouts: { connectMs: number; idleMs: number; queryMs: number };
  /** Time between two background status probes of one printer (env PRINTPROXY_MONITOR_INTERVAL_MS; 5 s), unless a client asks for sooner (down to 2 s: the web console, so it shows a paper-out within 3 s). */
  monitorIntervalMs: number;
  /** Time between two `~HS` reads while a label printer's accepted jobs are followed until printed (env PRINTPROXY_PRINTED_POLL_MS). */
  printedPollMs: number;
  /** Webhook delivery limits (env PRINTPROXY_WEBHOOK_RETRY_BASE_MS, _RETRY_CAP_MS, _RETRY_HORIZON_MS, _TIMEOUT_MS; events.md defaults). */
  webhooks: { retryBaseMs: number; retryCapMs: number; retryHorizonMs: number; timeoutMs: number };
}

/** A parsed command line: the daemon, or a sub-command with its remaining arguments. */
export type Command = { kind: 'serve'; options: DaemonOptions } | { kind: 'render' | 'usb-list' | 'fleet'; args: string[] } | { kind: 'help' } | { kind: 'version' };

/** Where settings, spool and certificate live when neither --data-dir nor PRINTPROXY_DATA_DIR says. */
export const DEFAULT_DATA_DIR = './data';

/** Where the device image mounts network shares; only mounts below it are share roots. */
export const DEFAULT_SHARE_ROOT = '/mnt/shares';

/** Where the root health gate writes why the new slot failed it (device-image.md "Health gate and rollback"). */
export const DEFAULT_GATE_REPORT = '/data/rauc/gate-failure';

/** The root helper's FIFO: the daemon writes `reboot\n` there (it is not root). */
export const DEFAULT_SYSTEM_REQUESTS = '/run/printproxyd/system-requests';

/** Usage text printed by `--help` and on a bad flag. */
export const USAGE = `usage: printproxyd [serve] [--data-dir DIR] [--port N] [--https-port N|--no-https] [--ipp-port N|--no-ipp] [--host ADDR]
                  [--tls-cert FILE --tls-key FILE] [--no-mdns] [--native-dir DIR] [--share-root DIR]
                  [--no-console|--console-dir DIR] [--log-level LEVEL] [--setup-file PATH] [--rauc PATH]
                  [--gate-report PATH] [--system-requests PATH] [--sealed-bundle-dir DIR]
       printproxyd render INPUT.pdf [--size 4x6] [--dpi 203] [-o OUT]
       printproxyd usb-list
       printproxyd fleet [--broker URL --ca FILE --cert FILE --key FILE] devices|printers|print|job|watch|update …  (printproxyd fleet --help)
env: PRINTPROXY_DATA_DIR, PRINTPROXY_API_KEY, PRINTPROXY_MDNS=0, PRINTPROXY_NATIVE_DIR, PRINTPROXY_SHARE_ROOT, PRINTPROXY_LOG_LEVEL,
     PRINTPROXY_CONSOLE=0, PRINTPROXY_CONSOLE_DIR, PRINTPROXY_SETUP_FILE, PRINTPROXY_RAUC (rauc),
     PRINTPROXY_GATE_REPORT (/data/rauc/gate-failure), PRINTPROXY_SYSTEM_REQUESTS (/run/printproxyd/system-requests), PRINTPROXY_SEALED_BUNDLE_DIR,
     PRINTPROXY_TCP_CONNECT_TIMEOUT_MS (5000), PRINTPROXY_TCP_IDLE_TIMEOUT_MS (15000), PRINTPROXY_TCP_QUERY_TIMEOUT_MS (1500),
     PRINTPROXY_WEBHOOK_RETRY_BASE_MS (1000), PRINTPROXY_WEBHOOK_RETRY_CAP_MS (3600000),
     PRINTPROXY_WEBHOOK_RETRY_HORIZON_MS (86400000), PRINTPROXY_WEBHOOK_TIMEOUT_MS (10000),
     PRINTPROXY_MONITOR_INTERVAL_MS (5000), PRINTPROXY_PRINTED_POLL_MS (1000), PRINTPROXY_V8_FLAGS (--optimize-for-size)`;

/** Parses argv (without node and script) and env into a Command; throws UsageError. */
export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv): Command {
  const [first, ...rest] = argv;
  if (first === 'render' || first === 'usb-list' || first === 'fleet') return { kind: first, args: rest };
  if (first === '--help' || first === '-h' || first === 'help') return { kind: 'help' };
  if (first === '--version' || first === 'version') return { kind: 'version' };
  return { kind: 'serve', options: parseDaemonFlags(first === 'serve' ? rest : argv, env) };
}

function parseDaemonFlags(args: string[], env: NodeJS.ProcessEnv): DaemonOptions {
  const options: DaemonOptions = {
    dataDir: env.PRINTPROXY_DATA_DIR || DEFAULT_DATA_DIR,
    host: '0.0.0.0',
    port: 8631,
    httpsPort: 8632,
    ippPort: 8633,
    mdns: env.PRINTPROXY_MDNS !== '0',
    apiKey: env.PRINTPROXY_API_KEY || undefined,
    setupFile: env.PRINTPROXY_SETUP_FILE || undefined,
    rauc: env.PRINTPROXY_RAUC || 'rauc',
    gateReport: env.PRINTPROXY_GATE_REPORT || DEFAULT_GATE_REPORT,
    systemRequests: env.PRINTPROXY_SYSTEM_REQUESTS || DEFAULT_SYSTEM_REQUESTS,
    sealedBundleDir: env.PRINTPROXY_SEALED_BUNDLE_DIR || undefined,
    nativeDir: env.PRINTPROXY_NATIVE_DIR || undefined,
    shareRoot: env.PRINTPROXY_SHARE_ROOT || DEFAULT_SHARE_ROOT,
    console: env.PRINTPROXY_CONSOLE !== '0',
    consoleDir: env.PRINTPROXY_CONSOLE_DIR || undefined,
    logLevel: logLevel(env.PRINTPROXY_LOG_LEVEL || 'info'),
    timeouts: {
      connectMs: envMs(env, 'PRINTPROXY_TCP_CONNECT_TIMEOUT_MS', 5000),
      idleMs: envMs(env, 'PRINTPROXY_TCP_IDLE_TIMEOUT_MS', 15_000),
      queryMs: envMs(env, 'PRINTPROXY_TCP_QUERY_TIMEOUT_MS', 1500),
    },
    monitorIntervalMs: envMs(env, 'PRINTPROXY_MONITOR_INTERVAL_MS', 5000),
    printedPollMs: envMs(env, 'PRINTPROXY_PRINTED_POLL_MS', 1000),
    webhooks: {
      retryBaseMs: envMs(env, 'PRINTPROXY_WEBHOOK_RETRY_BASE_MS', 1000),
      retryCapMs: envMs(env, 'PRINTPROXY_WEBHOOK_RETRY_CAP_MS', 3_600_000),
      retryHorizonMs: envMs(env, 'PRINTPROXY_WEBHOOK_RETRY_HORIZON_MS', 86_400_000),
      timeoutMs: envMs(env, 'PRINTPROXY_WEBHOOK_TIMEOUT_MS', 10_000),
    },
  };
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--data-dir': options.dataDir = value(); break;
      case '--port': options.port = port(flag, value()); break;
      case '--https-port': options.httpsPort = port(flag, value()); break;
      case '--no-https': options.httpsPort = null; break;
      case '--ipp-port': options.ippPort = port(flag, value()); break;
      case '--no-ipp': options.ippPort = null; break;
      case '--host': options.host = value(); break;
      case '--tls-cert': options.tlsCert = value(); break;
      case '--tls-key': options.tlsKey = value(); break;
      case '--no-mdns': options.mdns = false; break;
      case '--native-dir': options.nativeDir = value(); break;
      case '--share-root': options.shareRoot = value(); break;
      case '--no-console': options.console = false; break;
      case '--console-dir': options.consoleDir = value(); break;
      case '--log-level': options.logLevel = logLevel(value()); break;
      case '--setup-file': options.setupFile = value(); break;
      case '--rauc': options.rauc = value(); break;
      case '--gate-report': options.gateReport = value(); break;
      case '--system-requests': options.systemRequests = value(); break;
      case '--sealed-bundle-dir': options.sealedBundleDir = value(); break;
      default: throw new UsageError(`unknown flag ${flag}`);
    }
  }
  if (Boolean(options.tlsCert) !== Boolean(options.tlsKey)) throw new UsageError('--tls-cert and --tls-key go together');
  return options;
}

function envMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a whole number of milliseconds`);
  return n;
}

function port(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`${flag} must be a port number 0-65535`);
  return n;
}

function logLevel(raw: string): DaemonOptions['logLevel'] {
  if (raw === 'debug' || raw === 'info' || raw === 'warn' || raw === 'error' || raw === 'silent') return raw;
  throw new UsageError(`log level must be debug, info, warn, error or silent`);
}
