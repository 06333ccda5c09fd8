// The disk spool after failures: a refused put leaves nothing behind; a start sweeps what a crash left and says what it removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiskSpool, type SpoolEntry } from '../../src/spooler/disk-spool';
import { tempDir } from '../helpers/temp-dir';

/** A spool entry for `jobId`; inline documents have their bytes in the job's file, URL ones none. */
export function spoolEntry(jobId: string, seq: number, inline = true): SpoolEntry {
  return {
    seq,
    job: { jobId, printer: 'tcp_127-0-0-1_9100', target: 'tcp_127-0-0-1_9100', title: jobId, source: null, state: 'queued', error: null, errorCode: null, createdAt: new Date(0).toISOString(), completedAt: null, contentType: 'zpl', size: 0, cupsJobId: null, printedAt: null },
    document: { source: inline ? { kind: 'inline' } : { kind: 'url', url: 'http://127.0.0.1:1/x' }, format: 'zpl', contentType: 'zpl' },
    options: {} as SpoolEntry['options'],
  };
}

test('a put whose entry cannot be written removes its bytes and temporaries and rejects with the cause', async () => {
  const dir = tempDir('disk-spool');
  const spool = new DiskSpool(dir);
  // a non-empty folder where the job's file must land: the temporary is written, its rename fails
  mkdirSync(join(dir, 'pj_a.job'));
  writeFileSync(join(dir, 'pj_a.job', 'x'), '');
  await assert.rejects(spool.put(spoolEntry('pj_a', 1), Buffer.from('^XA^XZ')), /EISDIR|ENOTEMPTY|EEXIST/);
  assert.deepEqual(readdirSync(dir), ['pj_a.job']);
  assert.equal(spool.usedBytes(), 0, 'nothing counted for it');
});

test('load removes temporaries, files of the older layout, job files cut short or without their bytes and unreadable ones, reporting each', async () => {
  const dir = tempDir('disk-spool');
  const spool = new DiskSpool(dir);
  await spool.put(spoolEntry('pj_ok', 2), Buffer.from('kept'));
  await spool.put(spoolEntry('pj_url', 3, false), null);
  await spool.put(spoolEntry('pj_sent', 1), Buffer.from('sent'));
  await spool.markSending('pj_sent');
  const leftovers: Record<string, string> = {
    '.pj_x.job.123.1.tmp': 'half',
    'pj_orphan.data': 'bytes of the older layout',
    'pj_old.json': JSON.stringify(spoolEntry('pj_old', 5)),
    'pj_gone.sending': '',
    'pj_nodata.job': `${JSON.stringify({ ...spoolEntry('pj_nodata', 4), dataBytes: null })}\n`,
    'pj_short.job': `${JSON.stringify({ ...spoolEntry('pj_short', 6), dataBytes: 10 })}\nabc`,
    'pj_broken.job': '{"seq":',
  };
  for (const [name, text] of Object.entries(leftovers)) writeFileSync(join(dir, name), text);
  const reported: string[] = [];
  const recovered = spool.load((file) => reported.push(file));
  const bytes = await Promise.all(recovered.map((r) => (r.entry.document.source.kind === 'inline' ? spool.readData(r.entry.job.jobId).then((b) => b.toString()) : null)));
  assert.deepEqual(
    recovered.map((r, i) => [r.entry.job.jobId, bytes[i], r.interrupted]),
    [['pj_sent', 'sent', true], ['pj_ok', 'kept', false], ['pj_url', null, false]],
  );
  assert.deepEqual(reported.sort(), Object.keys(leftovers).sort());
  assert.deepEqual(readdirSync(dir).sort(), ['marks.log', 'pj_ok.job', 'pj_sent.job', 'pj_url.job']);
  assert.equal(spool.usedBytes(), ['pj_ok', 'pj_sent', 'pj_url'].reduce((n, id) => n + statSync(join(dir, `${id}.job`)).size, 0));
});

test('remove deletes the entry and its bytes, and its markers count no more (the order under a kill is checked by kill-during-write)', async () => {
  const dir = tempDir('disk-spool');
  const spool = new DiskSpool(dir);
  await spool.put(spoolEntry('pj_a', 1), Buffer.from('a'));
  await spool.markStarted('pj_a');
  await spool.markSending('pj_a');
  await spool.remove('pj_a');
  assert.deepEqual(readdirSync(dir), ['marks.log']);
  assert.deepEqual(spool.load(() => undefined), []);
});

test('markers: attempts and sending come back at start; a torn last line does not count; lines of jobs gone are compacted away', async () => {
  const dir = tempDir('disk-spool');
  const first = new DiskSpool(dir);
  await first.put(spoolEntry('pj_a', 1), Buffer.from('a'));
  await first.put(spoolEntry('pj_b', 2), Buffer.from('b'));
  await first.markStarted('pj_a');
  await first.markStarted('pj_a');
  await first.markSending('pj_a');
  await first.markStarted('pj_b');
  await first.close();
  // a crash in the middle of a line: what follows the last newline is no marker
  appendFileSync(join(dir, 'marks.log'), 'sending pj_b');
  const again = new DiskSpool(dir);
  assert.deepEqual(again.load(() => undefined).map((r) => [r.entry.job.jobId, r.attempts, r.interrupted]), [['pj_a', 2, true], ['pj_b', 1, false]]);
  // jobs come and go until the journal passes 64 KiB: it is rewritten with the live jobs' lines only
  const gone = (i: number) => `pj_${'0'.repeat(24)}${i}`;
  for (let i = 0; i < 1000; i += 1) {
    await again.put(spoolEntry(gone(i), 10 + i), Buffer.from('n'));
    await again.markStarted(gone(i));
    await again.markSending(gone(i));
    await again.remove(gone(i));
  }
  await again.close();
  const lines = readFileSync(join(dir, 'marks.log'), 'utf8').split('\n').filter(Boolean);
  assert.ok(statSync(join(dir, 'marks.log')).size < 64 * 1024, `compacted: ${statSync(join(dir, 'marks.log')).size} bytes`);
  assert.ok(lines.includes('started pj_a 2') && lines.includes('sending pj_a') && lines.includes('started pj_b 1'), 'the live jobs keep their markers');
  assert.ok(lines.length < 1000, `${lines.length} lines left of ${2 * 1000 + 4}`);
  assert.deepEqual(new DiskSpool(dir).load(() => undefined).map((r) => [r.entry.job.jobId, r.attempts, r.interrupted]), [['pj_a', 2, true], ['pj_b', 1, false]]);
});

test('entries of the older layout (.json, .data, .started, .sending) are moved to job files with their markers, each reported', async () => {
  const dir = tempDir('disk-spool');
  const old = (id: string, seq: number, inline = true) => JSON.stringify(spoolEntry(id, seq, inline));
  const files: Record<string, string> = {
    'pj_a.json': old('pj_a', 1),
    'pj_a.data': '^XA^FDa^FS^XZ',
    'pj_a.started': '1',
    'pj_a.sending': '',
    'pj_url.json': old('pj_url', 2, false),
    'pj_lost.json': old('pj_lost', 3),
    'pj_stray.data': 'bytes of no entry',
  };
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const reported: string[] = [];
  const spool = new DiskSpool(dir);
  const recovered = spool.load((file, reason) => reported.push(`${file}: ${reason}`));
  assert.deepEqual(recovered.map((r) => [r.entry.job.jobId, r.attempts, r.interrupted]), [['pj_a', 1, true], ['pj_url', 0, false]]);
  assert.equal((await spool.readData('pj_a')).toString(), '^XA^FDa^FS^XZ');
  assert.deepEqual(readdirSync(dir).sort(), ['marks.log', 'pj_a.job', 'pj_url.job']);
  assert.deepEqual(reported.sort(), [
    'pj_a.json: moved to pj_a.job (the spool\'s one-file layout)',
    'pj_lost.json: its inline document bytes are missing; removed',
    'pj_stray.data: a file of an older spool layout; removed',
    'pj_url.json: moved to pj_url.job (the spool\'s one-file layout)',
  ]);
  // the next start finds them as any job file, markers included
  await spool.close();
  assert.deepEqual(new DiskSpool(dir).load(() => assert.fail('nothing left to clean')).map((r) => [r.entry.job.jobId, r.attempts, r.interrupted]), [['pj_a', 1, true], ['pj_url', 0, false]]);
});

test('a job whose entry line is long (a URL of 100 KB) is read back whole after a restart', async () => {
  const dir = tempDir('disk-spool');
  const entry = spoolEntry('pj_long', 1, false);
  entry.document = { ...entry.document, source: { kind: 'url', url: `http://127.0.0.1:1/${'x'.repeat(100_000)}` } };
  const first = new DiskSpool(dir);
  await first.put(entry, null);
  await first.close();
  const [again] = new DiskSpool(dir).load(() => assert.fail('nothing to clean'));
  assert.deepEqual(again.entry.document, entry.document);
});
