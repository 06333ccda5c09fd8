// The netbird extension's status from `netbird status --json`, mapped to the seed's instance fields.
import os from 'node:os';
import type { ExtensionInstanceStatus } from '../schemas/device';

/** Runs a command and resolves its stdout; rejects when it cannot run (missing binary, exit code, timeout). */
export type CommandRunner = (file: string, args: string[], timeoutMs: number) => Promise<string>;

/** The default runner over child_process.execFile (node:child_process loaded at the first command, not at start-up). */
export const execRunner: CommandRunner = (file, args, timeoutMs) =>
  new Promise((resolve, reject) => {
    const { execFile } = require('node:child_process') as typeof import('node:child_process');
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });

/** Status of instance `id`: the mapped JSON when netbird answers, `active: false` with empty fields otherwise. */
export async function netbirdInstanceStatus(id: number, run: CommandRunner): Promise<ExtensionInstanceStatus> {
  try {
    const json = JSON.parse(await run('netbird', ['status', '--json'], 3000)) as Record<string, unknown>;
    return mapNetbird(id, json);
  } catch {
    return { ...emptyInstance(id), active: false };
  }
}

/** Maps netbird's status JSON to the seed fields (all strings but id and active). */
export function mapNetbird(id: number, json: Record<string, unknown>): ExtensionInstanceStatus {
  const management = obj(json.management);
  const signal = obj(json.signal);
  const relays = obj(json.relays);
  const peers = obj(json.peers);
  return {
    id,
    active: management.connected === true,
    os: `${os.type()} ${os.release()}`,
    daemon_version: str(json.daemonVersion),
    cli_version: str(json.cliVersion),
    management: `${str(management.url)} ${management.connected === true ? 'Connected' : 'Disconnected'}`.trim(),
    signal: `${str(signal.url)} ${signal.connected === true ? 'Connected' : 'Disconnected'}`.trim(),
    relays: relays.total !== undefined ? `${str(relays.available)}/${str(relays.total)} Available` : '',
    nameservers: Array.isArray(json.dnsServers) ? `${json.dnsServers.length} configured` : '',
    fqdn: str(json.fqdn),
    overlay_ip: str(json.netbirdIp),
    interface_type: json.usesKernelInterface === true ? 'Kernel' : json.usesKernelInterface === false ? 'Userspace' : '',
    quantum_resistance: json.quantumResistance === undefined ? '' : String(json.quantumResistance),
    lazy_connection: json.lazyConnectionEnabled === undefined ? '' : String(json.lazyConnectionEnabled),
    networks: Array.isArray(json.networks) ? json.networks.map(String).join(', ') : '',
    forwarding_rules: json.forwardingRules === undefined ? '' : str(json.forwardingRules),
    peers_count: peers.total !== undefined ? `${str(peers.connected)}/${str(peers.total)} Connected` : '',
  };
}

function emptyInstance(id: number): ExtensionInstanceStatus {
  return mapNetbird(id, {});
}

function obj(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}
