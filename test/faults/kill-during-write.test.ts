// SIGKILL at chosen file operations during settings, printer and spool writes: the next start reads the old or the new state, never a broken one.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { silentLogger, type Logger } from '../../src/log';
import { SettingsStore } from '../../src/settings/settings-store';
import { DiskSpool } from '../../src/spooler/disk-spool';
import { readSpoolFileHead } from '../../src/spooler/spool-file';
import { tempDir } from '../helpers/temp-dir';
import { listFiles } from './tmpfs-daemon';
import type { KillMode } from './kill-at-op';
import { JOB_BYTES, SCENARIO_KEY, writeScenario, type ScenarioStep } from './write-scenario';

const ROOT = resolve(__dirname, '..', '..');
const SEED = 20261124;
const RANDOM_KILLS = 8;

let template = '';
/** settings.json after each stored change of an uninterrupted run; statesAtAck[i]: index reached when step i was acknowledged. */
let states: string[] = [];
let statesAtAck: number[] = [];
let steps: ScenarioStep[] = [];
/** The file operations of an uninterrupted child run, in order. */
let ops: string[] = [];

/** A fresh data dir holding the template settings.json. */
function dataDirFromTemplate(): string {
  const dir = tempDir('kill-write');
  copyFileSync(join(template, 'settings.json'), join(dir, 'settings.json'));
  return dir;
}

function runHammer(dataDir: string, killAt: number, mode: KillMode): Promise<{ acks: string[]; ops: string[]; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'write-hammer.ts'), dataDir, String(killAt), mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((ok) => {
    child.on('close', (_code, signal) => {
      const lines = out.split('\n');
      const opsLine = lines.find((l) => l.startsWith('ops '));
      ok({ acks: lines.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4)), ops: opsLine ? opsLine.slice(4).split(',') : [], signal, stderr: err });
    });
  });
}

/** Deterministic distinct picks from 1..n (mulberry32). */
function seededPicks(seed: number, n: number, count: number): number[] {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const picks = new Set<number>();
  while (picks.size < Math.min(count, n)) {
    picks.add(1 + Math.floor(next() * n));
  }
  return [...picks].sort((x, y) => x - y);
}

before(async () => {
  template = tempDir('kill-template');
  await new SettingsStore({ dataDir: template, seedApiKey: SCENARIO_KEY, logger: silentLogger }).persist();
  const dir = dataDirFromTemplate();
  const run = writeScenario(dir);
  steps = run.steps;
  states = [readFileSync(join(dir, 'settings.json'), 'utf8')];
  run.store.onChange(() => states.push(readFileSync(join(dir, 'settings.json'), 'utf8')));
  for (const step of steps) {
    await step.run();
    statesAtAck.push(states.length - 1);
  }
  const child = await runHammer(dataDirFromTemplate(), 0, 'before');
  assert.deepEqual(child.acks, steps.map((s) => s.name), `uninterrupted child: ${child.stderr}`);
  ops = child.ops;
});

/** The document bytes of a spool job file (after its entry line). */
function documentBytes(file: string): Buffer {
  const { data } = readSpoolFileHead(file);
  return readFileSync(file).subarray(data.offset);
}

/** Checks a data dir after a kill that came after `acks`: settings, printers and spool are a state the run passed through. */
function assertConsistent(dataDir: string, acks: string[], where: string): void {
  const warnings: string[] = [];
  const logger: Logger = { ...silentLogger, warn: (msg) => warnings.push(msg) };
  const store = new SettingsStore({ dataDir, logger });
  assert.ok(!warnings.includes('settings.json unreadable, restored the previous copy'), `${where}: settings.json was broken`);
  const index = states.indexOf(JSON.stringify(store.value, null, 2));
  assert.ok(index >= 0, `${where}: settings (with their printers) match no state the run passed through`);
  const lo = acks.length === 0 ? 0 : statesAtAck[acks.length - 1];
  const hi = statesAtAck[acks.length] ?? states.length - 1;
  assert.ok(index >= lo && index <= hi, `${where}: state ${index} outside ${lo}..${hi} (acknowledged changes are kept, at most the one in flight is added)`);

  const recovered = new Map(new DiskSpool(join(dataDir, 'spool')).load(() => undefined).map((r) => [r.entry.job.jobId, r]));
  const inFlight = steps[acks.length]?.spool;
  for (const [jobId, bytes] of Object.entries(JOB_BYTES)) {
    const job = recovered.get(jobId);
    const removing = acks.includes(`remove ${jobId}`) || (inFlight?.op === 'remove' && inFlight.jobId === jobId);
    if (acks.includes(`remove ${jobId}`)) assert.equal(job, undefined, `${where}: removed ${jobId} came back`);
    if (acks.includes(`put ${jobId}`) && !removing) assert.ok(job, `${where}: acknowledged ${jobId} was lost`);
    if (!job) continue;
    if (bytes) assert.deepEqual(documentBytes(join(dataDir, 'spool', `${jobId}.job`)), bytes, `${where}: ${jobId} has other bytes`);
    if (acks.includes(`sending ${jobId}`)) assert.equal(job.interrupted, true, `${where}: ${jobId} would be sent twice`);
  }
  const files = listFiles(dataDir);
  assert.deepEqual(files.filter((f) => f.endsWith('.tmp')), [], `${where}: temporaries left`);
  // every file of the spool but the markers' journal belongs to a job
  const spoolFiles = files.filter((f) => f.startsWith('spool/') && f !== 'spool/marks.log').map((f) => f.slice('spool/'.length).split('.')[0]);
  assert.deepEqual([...new Set(spoolFiles)].filter((id) => !recovered.has(id)), [], `${where}: spool files of no job`);
}

test('an uninterrupted run touches settings and spool files in a fixed order', () => {
  assert.ok(ops.length > 50, `${ops.length} file operations`);
  assert.ok(ops.includes('handle.writeFile') && ops.includes('fs.rename') && ops.includes('handle.sync'));
});

/** Operation numbers (1-based) of every `name` in the uninterrupted run. */
function indicesOf(name: string): number[] {
  return ops.flatMap((op, i) => (op === name ? [i + 1] : []));
}

test('a SIGKILL at any chosen file operation leaves a data dir the next start reads as the old or the new state', async () => {
  // every write torn in half, every removal just done, and seeded picks before and after any operation
  const kills: Array<[number, KillMode]> = [
    ...indicesOf('handle.writeFile').map((n): [number, KillMode] => [n, 'torn']),
    ...indicesOf('fs.rm').map((n): [number, KillMode] => [n, 'after']),
    ...seededPicks(SEED, ops.length, RANDOM_KILLS).map((n): [number, KillMode] => [n, 'before']),
    ...seededPicks(SEED + 1, ops.length, RANDOM_KILLS).map((n): [number, KillMode] => [n, 'after']),
  ];
  for (const [killAt, mode] of kills) {
    const dataDir = dataDirFromTemplate();
    const run = await runHammer(dataDir, killAt, mode);
    const where = `kill ${mode} operation ${killAt} (${ops[killAt - 1]}) after ${run.acks.length} acknowledged steps`;
    assert.equal(run.signal, 'SIGKILL', `${where}: the child was not killed\n${run.stderr}`);
    assertConsistent(dataDir, run.acks, where);
  }
});
