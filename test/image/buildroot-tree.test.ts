// Static checks of the Buildroot external tree (buildroot/) and the root overlay (buildroot-overlay/): nothing here
// builds Buildroot. external.desc, the defconfigs and every path they name, each board's genimage layout and RAUC
// compatible, the boot scripts (mkimage and a shell parse for U-Boot, grub-script-check for GRUB) and shellcheck on
// every shell script. Needs mkimage (u-boot-tools), grub-script-check (grub-common) and shellcheck: a missing tool
// fails the test that needs it, by name. Run by `npm run test:image`:
//   node --import tsx --test test/image/buildroot-tree.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const TREE = join(ROOT, 'buildroot');
const EXTERNAL = '$(BR2_EXTERNAL_PRINTPROXY_PATH)';
const BOARDS = ['qemu-x86_64', 'qemu-aarch64', 'rpi4'];
const UBOOT_BOARDS = ['qemu-aarch64', 'rpi4'];
const PARTITIONS = ['boot', 'rootfs-a', 'rootfs-b', 'data'];
/** Defconfig options whose values are files of ours: each must be under the external tree (never Buildroot's own). */
const PATH_OPTION = /_(SCRIPT|OVERLAY|USERS_TABLES|FRAGMENT_FILES|CONFIG_FILE|CMDLINE_FILE|DEFAULT_ENV_FILE|PATCH_DIR)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Fails, naming the Debian package to install, when `tool` is not an executable on PATH. */
function requireTool(tool: string, debianPackage: string): void {
  const found = (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && isExecutable(join(dir, tool)));
  assert.ok(found, `${tool} is missing from PATH: install Debian's ${debianPackage} (apt-get install ${debianPackage})`);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function read(file: string): string {
  return readFileSync(file, 'utf8');
}

/** A defconfig's options: name to value, quotes removed ("is not set" lines as ""). */
function parseDefconfig(text: string): Map<string, string> {
  const options = new Map<string, string>();
  for (const line of text.split('\n')) {
    const set = /^(BR2_\w+)=(.*)$/.exec(line);
    const unset = /^# (BR2_\w+) is not set$/.exec(line);
    if (set) options.set(set[1], set[2].replace(/^"(.*)"$/, '$1'));
    else if (unset) options.set(unset[1], '');
  }
  return options;
}

/** What is wrong with the paths a defconfig names: outside this tree, or missing (`$(BR2_EXTERNAL_…)` is buildroot/). */
function defconfigPathProblems(options: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, value] of options) {
    for (const word of value.split(/\s+/).filter((w) => w !== '')) {
      const ours = word.startsWith(`${EXTERNAL}/`);
      if (PATH_OPTION.test(name) && !ours) problems.push(`${name}: ${word} is not under ${EXTERNAL}`);
      if (ours && !existsSync(join(TREE, word.slice(EXTERNAL.length)))) problems.push(`${name}: ${word} does not exist`);
    }
  }
  return problems;
}

/** A size or offset of genimage ("64M", "1090M", "512k", bytes) in bytes. */
function bytes(size: string): number {
  const match = /^(\d+)([kKMG]?)$/.exec(size.trim());
  assert.ok(match, `genimage size ${size}`);
  return Number(match[1]) * ({ '': 1, k: 1024, K: 1024, M: 1024 ** 2, G: 1024 ** 3 } as Record<string, number>)[match[2]];
}

interface Partition {
  name: string;
  offset: number;
  size: number | null;
  uuid: string;
}

/** The disk image's partitions of a genimage config, in table order. */
function genimagePartitions(text: string): Partition[] {
  const disk = text.replace(/#.*$/gm, '').split(/image\s+disk\.img\s*\{/)[1] ?? '';
  return [...disk.matchAll(/partition\s+([\w-]+)\s*\{([^}]*)\}/g)].map(([, name, body]) => {
    const field = (key: string) => new RegExp(`^\\s*${key}\\s*=\\s*"?([^"\\n]*)"?`, 'm').exec(body)?.[1];
    const size = field('size');
    return { name, offset: bytes(field('offset') ?? 'NaN'), size: size === undefined ? null : bytes(size), uuid: field('partition-uuid') ?? '' };
  });
}

function partitionsOf(board: string): Partition[] {
  return genimagePartitions(read(join(TREE, 'board', board, 'genimage.cfg')));
}

/** The U-Boot script of a board as post-image.sh makes it: the board's boot.cmd, then board/common/uboot-ab.cmd. */
function ubootScript(board: string): string {
  return read(join(TREE, 'board', board, 'boot.cmd')) + read(join(TREE, 'board', 'common', 'uboot-ab.cmd'));
}

/** What stops a U-Boot hush script: mkimage refusing it, shell syntax (unbalanced if/for, quotes) or sh-only syntax. */
function ubootScriptProblems(script: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'boot-scr-'));
  try {
    writeFileSync(join(dir, 'boot.cmd'), script);
    const mkimage = ['-A', 'arm64', '-O', 'linux', '-T', 'script', '-C', 'none', '-d', join(dir, 'boot.cmd'), join(dir, 'boot.scr')];
    const problems = commandProblems('mkimage', mkimage);
    if (problems.length === 0 && readFileSync(join(dir, 'boot.scr')).readUInt32BE(0) !== 0x27051956) problems.push('mkimage: no U-Boot image header');
    problems.push(...commandProblems('sh', ['-n', join(dir, 'boot.cmd')]), ...hushOnlyProblems(script));
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Shell syntax that sh accepts and U-Boot's hush does not (outside comment lines): command substitution, case, functions. */
function hushOnlyProblems(script: string): string[] {
  const unsupported: Array<[RegExp, string]> = [
    [/\$\(|`/, 'command substitution'],
    [/^\s*case\b/m, 'case'],
    [/^\s*[\w-]+\s*\(\)/m, 'a function definition'],
  ];
  const code = script.replace(/^\s*#.*$/gm, '');
  return unsupported.filter(([pattern]) => pattern.test(code)).map(([, what]) => `U-Boot's hush has no ${what}`);
}

/** What grub-script-check says of a GRUB config (nothing when it parses). */
function grubConfigProblems(file: string): string[] {
  return commandProblems('grub-script-check', [file]);
}

/** shellcheck's findings on a script, sourced files followed relative to the script. */
function shellcheckProblems(file: string): string[] {
  return commandProblems('shellcheck', ['-x', '-P', 'SCRIPTDIR', file]);
}

/** Runs a checker; its output as one problem when it exits non-zero, else none. */
function commandProblems(command: string, args: string[]): string[] {
  const run = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  if (run.error) return [`${command}: ${run.error.message}`];
  return run.status === 0 ? [] : [`${command} ${args.join(' ')} (exit ${run.status}):\n${run.stdout}${run.stderr}`];
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

/** The shell scripts of the tree and the overlay: a #!/bin/sh or #!/bin/bash line, or a `# shellcheck shell=` one. */
function shellScripts(): string[] {
  return [TREE, join(ROOT, 'buildroot-overlay')].flatMap(filesUnder).filter((file) => {
    const text = read(file);
    return /^#!\/bin\/(ba)?sh\b/.test(text) || /^# shellcheck shell=/m.test(text);
  });
}

test('external.desc names the tree PRINTPROXY and describes it; Config.in and external.mk take in every package', () => {
  const desc = read(join(TREE, 'external.desc'));
  const name = /^name:\s*(\S*)\s*$/m.exec(desc)?.[1];
  assert.ok(name !== undefined && /^[A-Za-z0-9_]+$/.test(name), `external.desc: a name: line of [A-Za-z0-9_] (found ${name})`);
  assert.equal(name, 'PRINTPROXY');
  assert.match(desc, /^desc:\s*\S/m, 'external.desc: a desc: line');
  const packages = readdirSync(join(TREE, 'package'));
  assert.ok(packages.includes('printproxyd'), 'package/printproxyd');
  const config = read(join(TREE, 'Config.in'));
  for (const p of packages) {
    assert.ok(config.includes(`source "$BR2_EXTERNAL_PRINTPROXY_PATH/package/${p}/Config.in"`), `Config.in sources package/${p}`);
  }
  assert.match(read(join(TREE, 'external.mk')), /include \$\(sort \$\(wildcard \$\(BR2_EXTERNAL_PRINTPROXY_PATH\)\/package\/\*\/\*\.mk\)\)/);
});

test("the printproxyd package's release defaults to package.json's version", () => {
  const config = read(join(TREE, 'package', 'printproxyd', 'Config.in'));
  const fallback = /config BR2_PACKAGE_PRINTPROXYD_VERSION_STRING\n(?:\t.*\n)*?\tdefault "([^"]*)"/.exec(config)?.[1];
  const { version } = JSON.parse(read(join(ROOT, 'package.json'))) as { version: string };
  assert.equal(fallback, version, 'BR2_PACKAGE_PRINTPROXYD_VERSION_STRING default');
});

test('each board has a defconfig whose paths all exist in this tree, and whose root fits a slot', () => {
  for (const board of BOARDS) {
    const file = join(TREE, 'configs', `printproxy_${board.replaceAll('-', '_')}_defconfig`);
    assert.ok(existsSync(file), `${relative(ROOT, file)} is missing`);
    const options = parseDefconfig(read(file));
    assert.deepEqual(defconfigPathProblems(options), [], relative(ROOT, file));
    assert.equal(options.get('BR2_ROOTFS_POST_SCRIPT_ARGS'), board, `${board}: BR2_ROOTFS_POST_SCRIPT_ARGS`);
    assert.equal(options.get('BR2_LINUX_KERNEL_INSTALL_TARGET'), 'y', `${board}: the boot scripts load the kernel from the root's /boot`);
    assert.equal(options.get('BR2_PACKAGE_PRINTPROXYD'), 'y', `${board}: BR2_PACKAGE_PRINTPROXYD`);
    const slot = partitionsOf(board).find((p) => p.name === 'rootfs-a')?.size ?? 0;
    assert.ok(bytes(options.get('BR2_TARGET_ROOTFS_EXT2_SIZE') ?? 'NaN') <= slot, `${board}: rootfs.ext4 larger than its ${slot}-byte slot`);
  }
});

test('the defconfig path check reports a missing file and a path outside the tree', () => {
  const options = parseDefconfig(`BR2_ROOTFS_OVERLAY="${EXTERNAL}/no-such-overlay"\nBR2_ROOTFS_POST_BUILD_SCRIPT="board/pc/post-build.sh"\n`);
  const problems = defconfigPathProblems(options);
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(problems.join('\n'), /no-such-overlay does not exist[\s\S]*board\/pc\/post-build\.sh is not under/);
});

test("each board's RAUC system.conf is of its own compatible, printproxy-<board>", () => {
  for (const board of BOARDS) {
    const conf = read(join(TREE, 'board', board, 'rauc-system.conf'));
    assert.equal(/^compatible=(.*)$/m.exec(conf)?.[1], `printproxy-${board}`, `${board}: rauc-system.conf compatible=`);
  }
});

test('every board lays out boot, rootfs-a, rootfs-b and data at the same offsets, with fixed partition UUIDs', () => {
  const reference = new Map(partitionsOf(BOARDS[0]).map((p) => [p.name, p.offset]));
  const bootstate = partitionsOf(UBOOT_BOARDS[0]).find((p) => p.name === 'bootstate')?.offset;
  for (const board of BOARDS) {
    const partitions = partitionsOf(board);
    const expected = UBOOT_BOARDS.includes(board) ? ['boot', 'bootstate', 'rootfs-a', 'rootfs-b', 'data'] : PARTITIONS;
    assert.deepEqual(partitions.map((p) => p.name), expected, `${board}: genimage.cfg partitions`);
    for (const p of partitions) {
      assert.equal(p.offset, p.name === 'bootstate' ? bootstate : reference.get(p.name), `${board}: offset of ${p.name}`);
      assert.equal(p.offset % 1024 ** 2, 0, `${board}: ${p.name} is not 1 MiB aligned`);
      assert.match(p.uuid, UUID, `${board}: ${p.name} has no fixed partition-uuid`);
    }
    assert.equal(new Set(partitions.map((p) => p.uuid)).size, partitions.length, `${board}: partition UUIDs repeat`);
    for (const [i, p] of partitions.slice(1).entries()) {
      assert.ok(partitions[i].offset + (partitions[i].size ?? 0) <= p.offset, `${board}: ${p.name} overlaps the partition before it`);
    }
  }
});

test('the boot scripts find the slots and the boot state where genimage puts them', () => {
  for (const board of UBOOT_BOARDS) {
    const partitions = partitionsOf(board);
    const env = new Map([...read(join(TREE, 'board', board, 'boot.cmd')).matchAll(/^setenv (\w+) (\S+)/gm)].map(([, k, v]) => [k, v]));
    const index = (name: string) => String(partitions.findIndex((p) => p.name === name) + 1);
    assert.equal(env.get('rootpart_A'), index('rootfs-a'), `${board}: rootpart_A`);
    assert.equal(env.get('rootpart_B'), index('rootfs-b'), `${board}: rootpart_B`);
    assert.equal(Number(env.get('bootstate_lba')) * 512, partitions.find((p) => p.name === 'bootstate')?.offset, `${board}: bootstate_lba`);
    assert.equal(Number(env.get('bootstate_blocks')) * 512, Number(env.get('bootstate_size')), `${board}: bootstate_blocks`);
    const fwEnv = read(join(TREE, 'board', board, 'fw_env.config')).replace(/#.*$/gm, '').trim().split(/\s+/);
    assert.deepEqual(fwEnv, ['/dev/disk/by-partlabel/bootstate', '0x0', env.get('bootstate_size')], `${board}: fw_env.config`);
  }
  const grub = read(join(TREE, 'board', 'qemu-x86_64', 'grub.cfg'));
  const names = partitionsOf('qemu-x86_64').map((p) => p.name);
  assert.match(grub, new RegExp(`part=gpt${names.indexOf('rootfs-a') + 1}\\s+label=rootfs-a`), 'grub.cfg: slot A partition');
  assert.match(grub, new RegExp(`part=gpt${names.indexOf('rootfs-b') + 1}\\s+label=rootfs-b`), 'grub.cfg: slot B partition');
});

test("the U-Boot boards' boot scripts compile (mkimage, and a shell parse of their syntax)", () => {
  requireTool('mkimage', 'u-boot-tools');
  for (const board of UBOOT_BOARDS) assert.deepEqual(ubootScriptProblems(ubootScript(board)), [], `${board}: boot.cmd + common/uboot-ab.cmd`);
});

test('the U-Boot script check reports an unterminated if and sh-only syntax', () => {
  requireTool('mkimage', 'u-boot-tools');
  const script = ubootScript('qemu-aarch64');
  assert.match(ubootScriptProblems(`${script}if test -n "\${slot}"; then\n\techo unterminated\n`).join('\n'), /sh -n/);
  assert.match(ubootScriptProblems(`${script}setenv slot $(echo A)\n`).join('\n'), /no command substitution/);
});

test("the qemu-x86_64 board's grub.cfg passes grub-script-check", () => {
  requireTool('grub-script-check', 'grub-common');
  assert.deepEqual(grubConfigProblems(join(TREE, 'board', 'qemu-x86_64', 'grub.cfg')), []);
});

test('the grub.cfg check reports a config with an unterminated if', () => {
  requireTool('grub-script-check', 'grub-common');
  const dir = mkdtempSync(join(tmpdir(), 'grub-cfg-'));
  try {
    const broken = join(dir, 'grub.cfg');
    writeFileSync(broken, `${read(join(TREE, 'board', 'qemu-x86_64', 'grub.cfg'))}\nif [ -n "$slot" ]; then\n\techo unterminated\n`);
    assert.equal(grubConfigProblems(broken).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('shellcheck passes on every shell script of the tree and the overlay, and each script with #! is executable', () => {
  requireTool('shellcheck', 'shellcheck');
  const scripts = shellScripts();
  for (const expected of ['board/common/post-build.sh', 'board/common/post-image.sh']) {
    assert.ok(scripts.includes(join(TREE, expected)), `${expected} found`);
  }
  assert.ok(scripts.includes(join(ROOT, 'buildroot-overlay', 'usr', 'libexec', 'printproxyd', 'partitions.sh')), 'sourced partitions.sh found');
  assert.ok(scripts.filter((s) => s.includes('/etc/init.d/')).length >= 10, 'the init scripts found');
  for (const script of scripts) {
    assert.deepEqual(shellcheckProblems(script), [], relative(ROOT, script));
    if (read(script).startsWith('#!')) assert.ok(isExecutable(script), `${relative(ROOT, script)} is not executable`);
  }
});

test('the shellcheck check reports a script with a syntax error', () => {
  requireTool('shellcheck', 'shellcheck');
  const dir = mkdtempSync(join(tmpdir(), 'shellcheck-'));
  try {
    writeFileSync(join(dir, 'broken.sh'), '#!/bin/sh\nif [ -n "$1" ]; then\n\techo unterminated\n');
    assert.equal(shellcheckProblems(join(dir, 'broken.sh')).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
