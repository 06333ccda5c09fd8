// The benches' `--exe EXECUTABLE [--root DEBIAN_ROOT]` option: the daemon as a single executable, run inside a Debian
// root with firmware/in-debian-root.sh when one is given (the device's runtime instead of the dev host's Node).
import { resolve } from 'node:path';

/** The daemon's program and leading arguments from `--exe`/`--root` in `argv`, and a label for the report; null without `--exe`. */
export function executableOption(argv: string[]): { command: string[]; label: string } | null {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at > 0 ? argv[at + 1] : undefined;
  };
  const exe = value('--exe');
  if (!exe) return null;
  const root = value('--root');
  return { command: [...(root ? [resolve('firmware/in-debian-root.sh'), resolve(root)] : []), resolve(exe)], label: `${exe}${root ? ` in ${root}` : ''}` };
}
