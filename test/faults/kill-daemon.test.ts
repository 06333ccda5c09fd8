// The real daemon killed while concurrent PATCHes are being stored: after a restart the printer has a tag set one of them gave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, tempDataDir, type ApiResult } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import { listFiles } from './tmpfs-daemon';

const PATCHES = 24;
/** Kill once this many PATCHes were answered (a fixed count, not a moment). */
const KILL_AFTER = [3, 11];

for (const answered of KILL_AFTER) {
  test(`SIGKILL after ${answered} of ${PATCHES} concurrent PATCHes: the restarted daemon shows tags one of them gave, from an intact file`, async () => {
    const dataDir = tempDataDir();
    const first = await startDaemon({ dataDir });
    const added = await first.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: 9, protocol: 'tcp' }, content: 'zpl', tags: ['t-initial'] } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const path: string = added.body.result.content.path;
    const answers: string[] = [];
    const patches = Array.from({ length: PATCHES }, (_, i) =>
      first.api('PATCH', `/printers/${path}`, { body: { tags: [`t${i}`] } }).then(
        (res: ApiResult) => void (res.status === 200 && answers.push(res.body.result.content.tags[0])),
        () => undefined,
      ),
    );
    await until(`${answered} PATCHes answered`, () => answers.length >= answered);
    await first.stop('SIGKILL');
    await Promise.all(patches);

    const second = await startDaemon({ dataDir });
    try {
      const tags: string[] = (await second.api('GET', `/printers/${path}`)).body.result.content.tags;
      // answers arrive on separate connections, so their order is not the order the store applied them in: any
      // PATCH's tags may be the last stored, but never the initial ones once a PATCH was answered
      assert.equal(tags.length, 1, JSON.stringify(tags));
      assert.match(tags[0], /^t\d+$/, `tags ${JSON.stringify(tags)} after ${answers.length} answered PATCHes`);
      assert.doesNotThrow(() => JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')));
      assert.deepEqual(listFiles(dataDir).filter((f) => f.endsWith('.tmp')), []);
    } finally {
      await second.stop();
    }
  });
}
