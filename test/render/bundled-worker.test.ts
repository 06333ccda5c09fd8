// The worker as the firmware build ships it: esbuild CJS bundle (pdfium aliased to dist/index.cjs) run from a code string.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { silentLogger } from '../../src/log';
import { RenderPool } from '../../src/render/render-pool';
import { boxedPagePdf } from '../fixtures/pdf/hostile-pdf';
import { pdfiumWasm } from './pdfium-fixture';
import { decodeLabels } from './zpl-label-decode';
import { zplJob } from './render-jobs';

const requireCjs = createRequire(__filename);
let pool: RenderPool | undefined;
after(() => pool?.close());

test('the bundled worker code renders a PDF with wasm handed over as bytes', async () => {
  const out = await build({
    entryPoints: [join(__dirname, '..', '..', 'src', 'render', 'render-worker.ts')],
    bundle: true, platform: 'node', target: 'node22', format: 'cjs', write: false, minify: true, logLevel: 'silent',
    alias: { '@embedpdf/pdfium': requireCjs.resolve('@embedpdf/pdfium').replace(/index\.js$/, 'index.cjs') },
  });
  const code = out.outputFiles[0].text;
  assert.ok(!code.includes('tsx'), 'the bundle does not need tsx');
  pool = new RenderPool({ size: 1, maxQueue: 2, jobTimeoutMs: 10_000, wasm: pdfiumWasm(), worker: { kind: 'code', code }, logger: silentLogger });
  const result = await pool.render(zplJob(boxedPagePdf(288, 432), { copies: 2 }));
  const [label] = decodeLabels(new TextDecoder().decode(result.bytes));
  assert.deepEqual([label.pw, label.ll, label.pq], [812, 1218, 2]);
});
