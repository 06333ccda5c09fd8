// The spool's markers: a marker written for a job that is no longer (or never was) in the spool is not kept, so the
// journal's compaction does not carry it; markers adopted from the older layout are read back as lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../../src/log';
import { SpoolMarks } from '../../src/spooler/spool-marks';
import { tempDir } from '../helpers/temp-dir';

test('a marker for a job the spool does not hold is written but not kept; one for a spooled job is', async () => {
  const file = join(tempDir('spool-marks'), 'marks.log');
  const spooled = new Set(['pj_in']);
  const marks = new SpoolMarks(file, silentLogger, (jobId) => spooled.has(jobId));
  await marks.started('pj_in');
  await marks.started('pj_gone');
  await marks.sending('pj_gone');
  assert.deepEqual([marks.of('pj_in'), marks.of('pj_gone')], [{ attempts: 1, sending: false }, { attempts: 0, sending: false }]);
  await marks.close();
  assert.equal(readFileSync(file, 'utf8'), 'started pj_in 1\nstarted pj_gone 1\nsending pj_gone\n');
});

test('markers adopted at start are lines the load reads back', () => {
  const file = join(tempDir('spool-marks'), 'marks.log');
  const marks = new SpoolMarks(file, silentLogger, (jobId) => jobId === 'pj_a');
  marks.adopt('pj_a', { attempts: 2, sending: true });
  marks.adopt('pj_b', { attempts: 0, sending: false });
  marks.load();
  assert.deepEqual(marks.of('pj_a'), { attempts: 2, sending: true });
  assert.equal(readFileSync(file, 'utf8'), 'started pj_a 2\nsending pj_a\n');
});
