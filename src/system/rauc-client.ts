// The RAUC operations of an update, run as the daemon's user (RAUC's D-Bus policy allows it): info, compatible, install, mark-active.
import { AppError } from '../errors';
import type { CommandRunner } from '../device/netbird-status';
import type { LineRunner } from './line-runner';

/** What `rauc info --output-format=json` says of a bundle whose signature verified against the system keyring. */
export interface BundleInfo {
  compatible: string;
  version: string;
}

/** Collaborators of the client. */
export interface RaucClientDeps {
  /** The rauc executable (`--rauc`). */
  command: string;
  run: CommandRunner;
  runLines: LineRunner;
  /** Longest wait for info and status calls, in ms (install has none: RAUC ends it). */
  timeoutMs: number;
}

type Stage = 'info' | 'status' | 'install' | 'mark-active';

/** A failed RAUC call (SYSTEM_UNAVAILABLE), with RAUC's words. */
function failed(stage: Stage, message: string): AppError {
  return new AppError('SYSTEM_UNAVAILABLE', stage === 'install' ? message : `rauc ${stage}: ${message}`);
}

/** Runs the RAUC commands an update needs. */
export class RaucClient {
  constructor(private readonly deps: RaucClientDeps) {}

  /** The bundle's manifest once its signature verified; rejects (SYSTEM_UNAVAILABLE) with RAUC's reason. */
  async info(file: string): Promise<BundleInfo> {
    const out = await this.call('info', ['info', '--output-format=json', file]);
    const json = parseObject(out, 'info');
    const compatible = json.compatible;
    const version = json.version;
    if (typeof compatible !== 'string' || typeof version !== 'string') throw failed('info', `answered no compatible or version: ${out.trim().slice(0, 200)}`);
    return { compatible, version };
  }

  /** The system's compatible (system.conf), from `rauc status --output-format=json`. */
  async compatible(): Promise<string> {
    const json = parseObject(await this.call('status', ['status', '--output-format=json']), 'status');
    if (typeof json.compatible !== 'string') throw failed('status', 'answered no compatible');
    return json.compatible;
  }

  /** Installs `file` into the slot not booted; `onProgress` gets each percentage RAUC prints (0-100). */
  async install(file: string, onProgress: (percent: number) => void): Promise<void> {
    try {
      await this.deps.runLines(this.deps.command, ['install', file], (line) => {
        const match = /^\s*(\d{1,3})%/.exec(line);
        if (match) onProgress(Math.min(100, Number(match[1])));
      });
    } catch (err) {
      throw failed('install', oneLine(err));
    }
  }

  /** Makes the slot that is not booted the primary one (`rauc status mark-active other`). */
  async markOtherActive(): Promise<void> {
    await this.call('mark-active', ['status', 'mark-active', 'other']);
  }

  private async call(stage: Stage, args: string[]): Promise<string> {
    try {
      return await this.deps.run(this.deps.command, args, this.deps.timeoutMs);
    } catch (err) {
      throw failed(stage, oneLine(err));
    }
  }
}

function parseObject(out: string, stage: Stage): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(out);
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json as Record<string, unknown>;
  } catch {
    // below
  }
  throw failed(stage, `printed no JSON object: ${out.trim().slice(0, 200)}`);
}

/** A failed command's message (Node puts its stderr there) on one line. */
function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim().slice(0, 500);
}
