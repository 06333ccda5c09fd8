// The disk spool on a partition that refuses its folder at start: it loads nothing, refuses puts, and takes jobs once writable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DiskSpool, type SpoolEntry } from '../../src/spooler/disk-spool';
import { tempDir } from '../helpers/temp-dir';

function spoolEntry(jobId: string, seq: number): SpoolEntry {
  return {
    seq,
    job: { jobId, printer: 'tcp_127-0-0-1_9100', target: 'tcp_127-0-0-1_9100', title: jobId, source: null, state: 'queued', error: null, errorCode: null, createdAt: new Date(0).toISOString(), completedAt: null, contentType: 'zpl', size: 0, cupsJobId: null, printedAt: null },
    document: { source: { kind: 'inline' }, format: 'zpl', contentType: 'zpl' },
    options: {} as SpoolEntry['options'],
  };
}

test('a spool folder a read-only partition refused: nothing loads, a put fails, and once writable again the folder is made and the job kept', async () => {
  const data = tempDir('disk-spool-ro');
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,ro', 'tmpfs', data]);
  const spool = new DiskSpool(join(data, 'spool'));
  try {
    assert.deepEqual(spool.load(() => assert.fail('nothing to clean')), []);
    await assert.rejects(spool.put(spoolEntry('pj_a', 1), Buffer.from('^XA^XZ')));
    execFileSync('mount', ['-o', 'remount,rw', data]);
    await spool.put(spoolEntry('pj_b', 2), Buffer.from('^XA^XZ'));
    assert.ok(existsSync(join(data, 'spool', 'pj_b.job')));
    assert.deepEqual(spool.load(() => undefined).map((r) => r.entry.job.jobId), ['pj_b']);
  } finally {
    // the spool keeps its folder open (to sync it after each job): closed first, or the partition stays busy
    await spool.close();
    execFileSync('umount', [data]);
  }
});
