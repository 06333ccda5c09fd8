// Crash injection for a child process: counts its async file operations and SIGKILLs itself at the n-th one.
import { promises as fsp, writeSync } from 'node:fs';

/** Where the kill lands: before the n-th operation runs, once it has completed, or (a handle's writeFile) after half its bytes. */
export type KillMode = 'before' | 'after' | 'torn';

const PROMISE_OPS = ['open', 'rename', 'link', 'rm', 'unlink', 'copyFile', 'readFile', 'writeFile', 'mkdir'] as const;
// close is an own arrow-function field of each FileHandle, not on the prototype: it is not counted
const HANDLE_OPS = ['writeFile', 'write', 'sync', 'datasync'] as const;

type AnyFn = (...args: unknown[]) => Promise<unknown>;

/** Wraps fs.promises and FileHandle methods; `killAt` 0 never kills. Returns the names of the operations so far, in order. */
export async function installKillAtOp(killAt: number, mode: KillMode): Promise<() => string[]> {
  const seen: string[] = [];
  const step = (name: string, self: unknown, original: AnyFn, args: unknown[]): Promise<unknown> => {
    seen.push(name);
    const count = seen.length;
    if (count !== killAt) return original.apply(self, args);
    if (mode === 'after') return original.apply(self, args).then(die, die);
    if (mode === 'torn' && name === 'handle.writeFile') tearAndDie(self as { fd: number }, args[0]);
    die();
  };
  const target = fsp as unknown as Record<string, AnyFn>;
  for (const name of PROMISE_OPS) {
    const original = target[name];
    target[name] = function (this: unknown, ...args: unknown[]) {
      return step(`fs.${name}`, this, original, args);
    };
  }
  const handle = await fsp.open('/dev/null', 'r');
  const proto = Object.getPrototypeOf(handle) as Record<string, AnyFn>;
  await handle.close();
  for (const name of HANDLE_OPS) {
    const original = proto[name];
    proto[name] = function (this: unknown, ...args: unknown[]) {
      return step(`handle.${name}`, this, original, args);
    };
  }
  return () => seen;
}

function tearAndDie(handle: { fd: number }, data: unknown): never {
  const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data as Uint8Array);
  writeSync(handle.fd, bytes.subarray(0, Math.floor(bytes.length / 2)));
  die();
}

function die(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL did not end the process');
}
