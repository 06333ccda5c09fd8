// Builds the guest's initramfs: static busybox, the kernel modules the USB gadget stack and the 9p share need
// (with their dependencies, in load order, from modules.dep), and /init. Cached by content in .cache/usb-kernel/.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';

/** Modules the guest loads, by name, with their parameters; dependencies come first, found in modules.dep. */
export const GUEST_MODULES = [
  ['virtio_pci', ''],
  ['9pnet_virtio', ''],
  ['9p', ''],
  ['configfs', ''],
  // two UDCs: a second gadget (an Epson beside a Zebra) needs its own
  ['dummy_hcd', 'num=2'],
  ['libcomposite', ''],
  ['usb_f_printer', ''],
  // FunctionFS: a printer gadget whose bulk OUT endpoint can halt (usb_f_printer's cannot)
  ['usb_f_fs', ''],
  ['usblp', ''],
];

/** The newest installed kernel: { version, image, modulesDir }; throws naming the Debian package when none is. */
export function findKernel() {
  const versions = existsSync('/lib/modules') ? readdirSorted('/lib/modules').filter((v) => existsSync(`/boot/vmlinuz-${v}`)) : [];
  const version = versions.at(-1);
  if (!version) throw new Error('no kernel in /boot with modules in /lib/modules: apt-get install linux-image-amd64');
  return { version, image: `/boot/vmlinuz-${version}`, modulesDir: `/lib/modules/${version}` };
}

function readdirSorted(dir) {
  return execFileSync('ls', ['-1v', dir], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** Module files in load order (each after its dependencies), with parameters. */
export function moduleOrder(modulesDir, wanted = GUEST_MODULES) {
  const deps = new Map();
  const byName = new Map();
  for (const line of readFileSync(join(modulesDir, 'modules.dep'), 'utf8').split('\n')) {
    const [file, rest] = line.split(':');
    if (!file) continue;
    deps.set(file, (rest ?? '').trim().split(/\s+/).filter(Boolean));
    byName.set(moduleName(file), file);
  }
  const order = [];
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of deps.get(file) ?? []) visit(dep);
    order.push(file);
  };
  const params = new Map();
  for (const [name, param] of wanted) {
    const file = byName.get(name.replace(/-/g, '_'));
    if (!file) continue; // built into this kernel
    params.set(file, param);
    visit(file);
  }
  return order.map((file) => ({ file, name: moduleName(file), params: params.get(file) ?? '' }));
}

function moduleName(file) {
  return file.split('/').pop().replace(/\.ko(\.(xz|zst|gz))?$/, '').replace(/-/g, '_');
}

function moduleBytes(path) {
  if (path.endsWith('.xz')) return execFileSync('xz', ['-dc', path], { maxBuffer: 1 << 28 });
  if (path.endsWith('.zst')) return execFileSync('zstd', ['-dc', path], { maxBuffer: 1 << 28 });
  if (path.endsWith('.gz')) return execFileSync('gzip', ['-dc', path], { maxBuffer: 1 << 28 });
  return readFileSync(path);
}

/** Returns the path of a cached initramfs for `kernel` with `initScript` as /init, building it when the inputs changed. */
export function initramfs(kernel, initScript, cacheDir) {
  const busybox = '/bin/busybox';
  if (!existsSync(busybox) || !isStatic(busybox)) throw new Error('no static busybox: apt-get install busybox-static');
  const modules = moduleOrder(kernel.modulesDir);
  const init = readFileSync(initScript);
  const key = createHash('sha256')
    .update(kernel.version)
    .update(JSON.stringify(modules))
    .update(init)
    .update(readFileSync(busybox))
    .digest('hex')
    .slice(0, 16);
  const out = join(cacheDir, `initramfs-${kernel.version}-${key}.cpio`);
  if (existsSync(out)) return { path: out, built: false, modules };
  const cpio = new CpioWriter();
  for (const dir of ['bin', 'sbin', 'dev', 'proc', 'sys', 'host', 'modules', 'tmp']) cpio.dir(dir);
  cpio.file('bin/busybox', readFileSync(busybox), 0o755);
  cpio.symlink('bin/sh', 'busybox');
  cpio.file('init', init, 0o755);
  const list = [];
  for (const m of modules) {
    const name = `${m.name}.ko`;
    cpio.file(`modules/${name}`, moduleBytes(join(kernel.modulesDir, m.file)), 0o644);
    list.push(`${name} ${m.params}`.trim());
  }
  cpio.file('modules/order', Buffer.from(list.join('\n') + '\n'), 0o644);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(`${out}.tmp`, cpio.finish());
  renameSync(`${out}.tmp`, out);
  return { path: out, built: true, modules };
}

function isStatic(path) {
  try {
    return /not a dynamic executable|statically linked/.test(execFileSync('ldd', [path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (err) {
    return /not a dynamic executable/.test(String(err.stdout ?? '') + String(err.stderr ?? ''));
  }
}

/** The newc cpio format the kernel unpacks (uncompressed: the kernel takes it as it is). */
class CpioWriter {
  parts = [];
  ino = 1;

  dir(name) {
    this.entry(name, 0o040755, Buffer.alloc(0));
  }

  file(name, data, mode) {
    this.entry(name, 0o100000 | mode, data);
  }

  symlink(name, target) {
    this.entry(name, 0o120777, Buffer.from(target));
  }

  entry(name, mode, data) {
    const hex = (n) => n.toString(16).padStart(8, '0');
    const nameBytes = Buffer.from(name + '\0');
    const fields = ['070701', hex(this.ino++), hex(mode), hex(0), hex(0), hex(1), hex(0), hex(data.length), hex(0), hex(0), hex(0), hex(0), hex(nameBytes.length), hex(0)];
    const header = Buffer.from(fields.join(''));
    this.parts.push(header, nameBytes, pad(header.length + nameBytes.length), data, pad(data.length));
  }

  finish() {
    this.entry('TRAILER!!!', 0, Buffer.alloc(0));
    return Buffer.concat(this.parts);
  }
}

function pad(length) {
  return Buffer.alloc((4 - (length % 4)) % 4);
}
