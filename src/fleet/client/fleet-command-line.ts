// The command line of `printproxyd fleet …`: flags and PRINTPROXY_FLEET_* environment into one parsed command.
import { FleetClientError } from '../../errors';
import { DEFAULT_TOPIC_PREFIX } from './fleet-topics';
import type { FleetUpdate } from './fleet-update';

/** Usage text of the fleet sub-command. */
export const FLEET_USAGE = `usage: printproxyd fleet [--broker URL] [--ca FILE] [--cert FILE] [--key FILE] [--prefix P] [--timeout MS] [--json] COMMAND
  devices                          every device from its retained status: id, online/offline, epoch, version, since
  printers DEVICE                  the device's last published printer list
  print DEVICE TARGET FILE [--no-wait] [--idempotency-key KEY] [--title T] [--content-type T]
                                   prints FILE (.zpl as zpl, .pdf as pdf_base64, else raw_base64) on TARGET (a printer path or tag_…)
  job DEVICE JOB_ID                the job's record
  watch [DEVICE]                   events (and births/deaths) of one device or all, one JSON line each, until Ctrl-C
  update DEVICE…|--all --url URL --sha256 HEX --size BYTES --version V [--waves 1,10%,100%] [--max-failures N]
         [--reboot idle|now|manual] [--device-timeout S]
                                   installs the signed bundle at URL on each device, wave after wave, one line per device;
                                   stops before the next wave when more than N (default 0) failed
env: PRINTPROXY_FLEET_BROKER, PRINTPROXY_FLEET_CA, PRINTPROXY_FLEET_CERT, PRINTPROXY_FLEET_KEY, PRINTPROXY_FLEET_PREFIX (${DEFAULT_TOPIC_PREFIX}),
     PRINTPROXY_FLEET_USERNAME, PRINTPROXY_FLEET_PASSWORD`;

/** One fleet command with its arguments. */
export type FleetCommand =
  | { name: 'devices' }
  | { name: 'printers'; device: string }
  | { name: 'print'; device: string; target: string; file: string; wait: boolean; idempotencyKey?: string; title?: string; contentType?: string }
  | { name: 'job'; device: string; jobId: string }
  | { name: 'watch'; device: string | null }
  | { name: 'update'; devices: string[] | 'all'; update: FleetUpdate; waves: string; maxFailures: number; deviceMs: number };

/** A parsed `printproxyd fleet` command line: where the broker is, the identity's files, the command and output form. */
export interface FleetCommandLine {
  broker: string;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  username?: string;
  password?: string;
  topicPrefix: string;
  /** Deadline of one request, in ms. */
  timeoutMs: number;
  json: boolean;
  command: FleetCommand;
}

/** Parses the arguments after `fleet` and the environment; throws FleetClientError FLEET_BAD_ARGUMENT with the reason. */
export function parseFleetCommandLine(argv: string[], env: NodeJS.ProcessEnv): FleetCommandLine {
  const flags: Record<string, string | true> = {};
  const words: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const name = arg.slice(2);
    if (BOOLEAN_FLAGS.has(name)) flags[name] = true;
    else if (VALUE_FLAGS.has(name)) flags[name] = valueOf(argv, ++i, arg);
    else throw bad(`unknown flag ${arg}`);
  }
  const broker = text(flags.broker) ?? env.PRINTPROXY_FLEET_BROKER;
  if (!broker) throw bad('no broker: give --broker URL or PRINTPROXY_FLEET_BROKER');
  return {
    broker,
    caFile: text(flags.ca) ?? (env.PRINTPROXY_FLEET_CA || undefined),
    certFile: text(flags.cert) ?? (env.PRINTPROXY_FLEET_CERT || undefined),
    keyFile: text(flags.key) ?? (env.PRINTPROXY_FLEET_KEY || undefined),
    username: text(flags.username) ?? (env.PRINTPROXY_FLEET_USERNAME || undefined),
    password: env.PRINTPROXY_FLEET_PASSWORD || undefined,
    topicPrefix: text(flags.prefix) ?? (env.PRINTPROXY_FLEET_PREFIX || DEFAULT_TOPIC_PREFIX),
    timeoutMs: timeout(text(flags.timeout)),
    json: flags.json === true,
    command: command(words, flags),
  };
}

const BOOLEAN_FLAGS = new Set(['json', 'no-wait', 'all']);
const VALUE_FLAGS = new Set([
  'broker', 'ca', 'cert', 'key', 'username', 'prefix', 'timeout', 'idempotency-key', 'title', 'content-type',
  'url', 'sha256', 'size', 'version', 'waves', 'max-failures', 'reboot', 'device-timeout',
]);

function command(words: string[], flags: Record<string, string | true>): FleetCommand {
  const [name, ...args] = words;
  switch (name) {
    case 'devices':
      return arity(args, 0, 0, { name });
    case 'printers':
      return arity(args, 1, 1, { name, device: args[0] });
    case 'print':
      return arity(args, 3, 3, { name, device: args[0], target: args[1], file: args[2], wait: flags['no-wait'] !== true, idempotencyKey: text(flags['idempotency-key']), title: text(flags.title), contentType: text(flags['content-type']) });
    case 'job':
      return arity(args, 2, 2, { name, device: args[0], jobId: args[1] });
    case 'watch':
      return arity(args, 0, 1, { name, device: args[0] ?? null });
    case 'update':
      return updateCommand(args, flags);
    default:
      throw bad(name === undefined ? 'no command' : `unknown command ${name}`);
  }
}

/** `update DEVICE…|--all` with the release's flags, checked as the device would check them. */
function updateCommand(args: string[], flags: Record<string, string | true>): FleetCommand {
  if ((args.length === 0) === (flags.all !== true)) throw bad('update takes DEVICE… or --all (not both)');
  const required = (flag: string) => text(flags[flag]) ?? (() => { throw bad(`update needs --${flag}`); })();
  const url = required('url');
  const sha256 = required('sha256').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw bad('--sha256 must be 64 hexadecimal digits');
  const size = wholeNumber(required('size'), '--size', 1);
  const reboot = text(flags.reboot) ?? 'idle';
  if (reboot !== 'idle' && reboot !== 'now' && reboot !== 'manual') throw bad('--reboot must be idle, now or manual');
  return {
    name: 'update',
    devices: flags.all === true ? 'all' : args,
    update: { url, sha256, size, version: required('version'), reboot },
    waves: text(flags.waves) ?? '100%',
    maxFailures: wholeNumber(text(flags['max-failures']) ?? '0', '--max-failures', 0),
    deviceMs: wholeNumber(text(flags['device-timeout']) ?? '1800', '--device-timeout', 1) * 1000,
  };
}

function wholeNumber(raw: string, flag: string, min: number): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw bad(`${flag} must be a whole number of at least ${min}`);
  return n;
}

function arity<T extends FleetCommand>(args: string[], min: number, max: number, parsed: T): T {
  if (args.length < min || args.length > max) throw bad(`${parsed.name} takes ${min === max ? min : `${min} to ${max}`} argument(s), got ${args.length}`);
  return parsed;
}

function valueOf(argv: string[], i: number, flag: string): string {
  const v = argv[i];
  if (v === undefined) throw bad(`${flag} needs a value`);
  return v;
}

function text(v: string | true | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function timeout(raw: string | undefined): number {
  if (raw === undefined) return 30_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw bad('--timeout must be a whole number of milliseconds');
  return n;
}

function bad(message: string): FleetClientError {
  return new FleetClientError('FLEET_BAD_ARGUMENT', message);
}
