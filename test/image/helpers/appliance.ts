// A booted image under qemu, seen from outside the guest: its API through a hostfwd to the guest's port 80, its serial
// console (the root shell there, for what only the device can see), and its disk image after power-off.
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { valueWithin } from '../../helpers/until';
import { board as boardOf } from '../../../firmware/image/boards.mjs';
import { startGuest } from '../../../firmware/image/qemu-guest.mjs';
import { buildImage } from '../../../firmware/image/build-image.mjs';

/** Under software emulation on a loaded 2-core machine: a boot to a ready daemon (spec: 35-47 s unloaded). */
export const BOOT_LIMIT_MS = 300_000;
/** Where the guest reaches a service of the test (qemu's guestfwd): 10.0.2.100:PORT. */
export const HOST_FROM_GUEST = '10.0.2.100';
/** Offset of the `boot` partition in every board's disk (genimage.cfg), for mtools. */
const BOOT_OFFSET = 1 << 20;

/** A JSON API answer: HTTP status and the parsed envelope. */
export interface Answer {
  status: number;
  body: { status: string; statusCode: number; result: { module: string; message: string; content: any } };
}

/** Builds (or reuses) the board's image; returns its disk.img path. */
export function imageFor(board: string): string {
  return buildImage({ board });
}

/** Copies `disk` to `to` keeping holes (the slots' free space stays sparse). */
export function copyDisk(disk: string, to: string): string {
  execFileSync('cp', ['--sparse=always', disk, to]);
  return to;
}

/** Writes `text` as FILE on the disk's boot partition (what a PC does after flashing); null removes it. */
export function writeBootFile(disk: string, name: string, text: string | null, dir: string): void {
  if (text === null) {
    execFileSync('mdel', ['-i', `${disk}@@${BOOT_OFFSET}`, `::${name}`]);
    return;
  }
  const file = join(dir, name);
  execFileSync('sh', ['-c', 'printf %s "$1" > "$2"', 'sh', text, file]);
  execFileSync('mcopy', ['-o', '-i', `${disk}@@${BOOT_OFFSET}`, file, `::${name}`]);
}

/** The names in the root folder of the disk's boot partition. */
export function bootFiles(disk: string): string[] {
  return execFileSync('mdir', ['-b', '-i', `${disk}@@${BOOT_OFFSET}`, '::'], { encoding: 'utf8' })
    .split('\n').map((l) => l.trim().replace(/^::\//, '')).filter(Boolean);
}

/** A file of the disk's boot partition, as text. */
export function bootFile(disk: string, path: string): string {
  return execFileSync('mtype', ['-i', `${disk}@@${BOOT_OFFSET}`, `::${path}`], { encoding: 'latin1' });
}

/** GRUB's environment block (name=value lines, # padding) as a map. */
export function grubEnv(disk: string): Record<string, string> {
  return envPairs(bootFile(disk, 'EFI/BOOT/grubenv').split('\n'));
}

/** The U-Boot boards' `bootstate` environment (65 MiB in, 16 KiB: CRC32 then name=value\0 pairs) as a map. */
export function ubootEnv(disk: string): Record<string, string> {
  const bytes = Buffer.alloc(0x4000);
  const fd = openSync(disk, 'r');
  readSync(fd, bytes, 0, bytes.length, 65 * 2 ** 20);
  closeSync(fd);
  return envPairs(bytes.subarray(4).toString('latin1').split('\0'));
}

function envPairs(lines: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of lines) {
    const eq = line.indexOf('=');
    if (eq > 0 && !line.startsWith('#')) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One qemu guest of `board` on `disk`, its port 80 on a free local port, `guestPorts` [guestPort, hostPort] forwarded back. */
export class Appliance {
  private serialText = '';
  private marker = 0;
  private exited: Promise<number | null>;

  private constructor(readonly board: string, readonly disk: string, readonly port: number, private readonly guest: ChildProcess) {
    guest.stdout!.on('data', (chunk: Buffer) => {
      this.serialText += chunk.toString('latin1');
    });
    guest.stderr!.on('data', (chunk: Buffer) => {
      this.serialText += chunk.toString('latin1');
    });
    this.exited = new Promise((resolve) => guest.on('exit', (code) => resolve(code)));
  }

  /** Starts the guest; resolves at once (see `ready`). */
  static async boot(board: string, disk: string, guestPorts: Array<[number, number]> = []): Promise<Appliance> {
    const port = await freePort();
    const guest = startGuest(boardOf(board), disk, {
      hostfwd: [[port, 80]], guestfwd: guestPorts.map(([guestPort, hostPort]) => [HOST_FROM_GUEST, guestPort, hostPort]), serial: 'pipe', stdin: 'pipe',
    });
    return new Appliance(board, disk, port, guest);
  }

  /** Everything the serial console printed so far. */
  get serial(): string {
    return this.serialText;
  }

  /** The serial console's text from `from` (a length of `serial` taken earlier) on. */
  serialSince(from: number): string {
    return this.serialText.slice(from);
  }

  /** Waits for `pattern` in the serial output after offset `from`; returns the match. */
  async waitSerial(what: string, pattern: RegExp, from = 0, limitMs = BOOT_LIMIT_MS): Promise<RegExpMatchArray> {
    return valueWithin(`${this.board}: ${what}\n--- serial (tail) ---\n${this.serialText.slice(-3000)}`, limitMs, () => this.serialText.slice(from).match(pattern));
  }

  /** Waits until the daemon answers the readiness check; returns its content ({ ready, version }). */
  async ready(limitMs = BOOT_LIMIT_MS): Promise<{ ready: boolean; version: string }> {
    return valueWithin(`${this.board}: GET /api/v1/health answered\n--- serial (tail) ---\n${this.serialText.slice(-3000)}`, limitMs, async () => {
      const answer = await this.api('GET', '/health').catch(() => null);
      return answer?.status === 200 ? answer.body.result.content : null;
    });
  }

  /** An API call (JSON in and out) to /api/v1`path`, with `key` as X-API-Key when given. */
  async api(method: string, path: string, { key, body, raw }: { key?: string; body?: unknown; raw?: Buffer } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (key) headers['x-api-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (raw) headers['content-type'] = 'application/octet-stream';
    const response = await fetch(`http://127.0.0.1:${this.port}/api/v1${path}`, {
      method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)), signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  /** GET of a page outside the API (the console at `/`): status and text. */
  async page(path: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`http://127.0.0.1:${this.port}${path}`, { signal: AbortSignal.timeout(60_000) });
    return { status: response.status, text: await response.text() };
  }

  /** Runs `command` in the console's root shell; returns what it printed and its exit status. */
  async shell(command: string, limitMs = 60_000): Promise<{ out: string; status: number }> {
    this.marker += 1;
    const tag = `@@${this.marker}@@`;
    const from = this.serialText.length;
    // the markers are made by printf so that the shell's echo of this line never matches them
    await this.type(`printf '%s\\n' '${tag}B'; ${command}; printf '%s %s\\n' '${tag}E' $?`);
    const match = await this.waitSerial(`the shell ran: ${command}`, new RegExp(`\\n${escape(tag)}B\\r?\\n([\\s\\S]*?)${escape(tag)}E (\\d+)`), from, limitMs);
    return { out: match[1].replace(/\r/g, ''), status: Number(match[2]) };
  }

  /** Waits until the console's shell answers (it starts after the init scripts) in the boot whose output starts at `from`. */
  async shellReady(from = 0, limitMs = BOOT_LIMIT_MS): Promise<void> {
    await this.waitSerial('the init scripts ran (health gate started)', /Starting health gate/, from, limitMs);
    await this.shell('true', limitMs);
  }

  /** Types one line into the console's shell, without waiting for anything (reboot). */
  send(line: string): void {
    this.guest.stdin!.write(`${line}\n`);
  }

  /**
   * Types `line` and Enter into the console, a few characters at a time, each after the tty echoed the one before:
   * a whole line written at once overruns the UART's 16-byte FIFO, and qemu then stops passing input on.
   */
  private async type(line: string): Promise<void> {
    const chunk = 8;
    for (let at = 0; at < line.length; at += chunk) {
      const part = line.slice(at, at + chunk);
      const from = this.serialText.length;
      this.guest.stdin!.write(part);
      await valueWithin(`${this.board}: the console echoed ${JSON.stringify(part)}`, 60_000, () => this.serialText.slice(from).includes(part));
    }
    this.guest.stdin!.write('\n');
  }

  /** Cuts the power (kills qemu) and waits for it to be gone; the disk keeps what reached it. */
  async powerOff(): Promise<void> {
    this.guest.kill('SIGKILL');
    await this.exited;
  }

  /** Asks the guest to power off cleanly (BusyBox poweroff: rcK, then the disks synced) and waits until qemu exits. */
  async shutdown(limitMs = 120_000): Promise<void> {
    this.guest.stdin!.write('poweroff\n');
    const code = await Promise.race([this.exited, new Promise<'late'>((resolve) => setTimeout(resolve, limitMs, 'late'))]);
    if (code === 'late') {
      await this.powerOff();
      assert.fail(`${this.board}: qemu did not exit within ${limitMs} ms of poweroff\n${this.serialText.slice(-2000)}`);
    }
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The release version package.json gives (an image built without --version reports it). */
export function packageVersion(): string {
  return JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version;
}
