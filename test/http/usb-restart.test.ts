// Spooled jobs for USB printers across a restart, on the fake bus: recovered after the first USB scan, and held
// (not failed) while their printer is absent, then printed when it is plugged in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { restartZebra } from '../fixtures/usb-restart-first-run';
import { startInProcess } from '../helpers/in-process-daemon';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

/** Runs the first daemon in its own process; resolves with the ids of the jobs it left queued (RST1's, RST2's). */
function firstRun(dataDir: string): Promise<string[]> {
  const child = fork(join(__dirname, '../fixtures/usb-restart-first-run.ts'), [dataDir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let jobIds: string[] = [];
    child.on('message', (m: { jobIds: string[] }) => (jobIds = m.jobIds));
    child.on('exit', (code) => (code === 0 && jobIds.length === 2 ? resolve(jobIds) : reject(new Error(`first run exited ${code}`))));
  });
}

test('after a restart a job for a USB printer that is attached is recovered after the first USB scan and printed; one for an absent printer is held, and prints once it is plugged in', async () => {
  const dataDir = tempDir('usb-restart');
  const [absentJob, presentJob] = await firstRun(dataDir);
  const bus = new FakeUsbBus();
  const present = bus.add(restartZebra('RST2'));
  const d = await startInProcess({ usb: () => bus }, dataDir);
  try {
    const job = async (id: string) => (await d.api('GET', `/jobs/${id}`)).body.result.content;
    await until('the job for the attached printer printed', async () => (await job(presentJob!)).state === 'completed');
    assert.equal(present.lastJob()!.toString(), '^XA^FDRST2 after restart^FS^XZ');
    assert.equal((await job(absentJob!)).state, 'queued', 'held while its printer is absent, not failed');
    const back = bus.add(restartZebra('RST1'));
    await until('the held job printed once its printer came back', async () => (await job(absentJob!)).state === 'completed');
    assert.equal(back.lastJob()!.toString(), '^XA^FDRST1 after restart^FS^XZ');
  } finally {
    await d.stop();
  }
});
