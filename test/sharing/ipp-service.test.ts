// Unit tests of the IPP endpoint's answers to bytes that are not a request, and to failures inside an operation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, GROUP, TAG } from '../../src/ipp/ipp-wire';
import { silentLogger } from '../../src/log';
import { IPP_STATUS } from '../../src/ipp/ipp-constants';
import type { IppOperations } from '../../src/sharing/ipp-operations';
import { IppService } from '../../src/sharing/ipp-service';
import type { PrinterRecord } from '../../src/schemas/printer';

const ORIGIN = { host: '127.0.0.1:631', secure: false, hold: () => () => undefined };

function service(run: () => Promise<never>): IppService {
  return new IppService({
    operations: { run } as unknown as IppOperations,
    findShared: () => ({ id: 'ABCDEFGH' }) as PrinterRecord,
    webUrl: () => 'http://127.0.0.1',
    logger: silentLogger,
  });
}

/** A Get-Printer-Attributes request whose operation group holds `extra` after charset, language and printer-uri. */
function request(extra: Buffer = Buffer.alloc(0)): Buffer {
  const attr = (tag: number, name: string, v: string) => {
    const b = Buffer.alloc(5 + name.length + v.length);
    b[0] = tag;
    b.writeUInt16BE(name.length, 1);
    b.write(name, 3, 'latin1');
    b.writeUInt16BE(v.length, 3 + name.length);
    b.write(v, 5 + name.length, 'latin1');
    return b;
  };
  return Buffer.concat([
    Buffer.from([0x02, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x07, GROUP.operation]),
    attr(TAG.charset, 'attributes-charset', 'utf-8'),
    attr(TAG.naturalLanguage, 'attributes-natural-language', 'en'),
    attr(TAG.uri, 'printer-uri', 'ipp://127.0.0.1/ipp/print/ABCDEFGH'),
    extra,
    Buffer.from([GROUP.end]),
  ]);
}

function statusMessage(answer: Buffer): string {
  return String(decodeMessage(answer).groups[0].attributes.get('status-message')?.[0] ?? '');
}

const nestedCollections = (depth: number) => {
  const begin = Buffer.from([TAG.begCollection, 0, 0, 0, 0]);
  const member = Buffer.from([TAG.memberAttrName, 0, 0, 0, 1, 0x6d, TAG.begCollection, 0, 0, 0, 0]);
  const end = Buffer.from([TAG.endCollection, 0, 0, 0, 0]);
  const named = Buffer.from([TAG.begCollection, 0, 1, 0x63, 0, 0]);
  return Buffer.concat([named, ...Array<Buffer>(depth - 1).fill(member), ...Array<Buffer>(depth).fill(end)]);
};

test('100,000 nested collections, a bad textWithLanguage: client-error-bad-request, request id kept, no exception text', async () => {
  const never = () => Promise.reject(new Error('not reached'));
  const badText = Buffer.from([TAG.textWithLanguage, 0, 8, ...Buffer.from('job-name'), 0, 4, 0, 0x40, 0x65, 0x6e]);
  for (const extra of [nestedCollections(100_000), badText]) {
    const answer = await service(never).handle('ABCDEFGH', request(extra), ORIGIN);
    const decoded = decodeMessage(answer);
    assert.equal(decoded.code, IPP_STATUS.badRequest);
    assert.equal(decoded.requestId, 7);
    assert.doesNotMatch(statusMessage(answer), /RangeError|stack|out of range|offset|at .*\.ts/i);
  }
});

test('an operation that fails unexpectedly: server-error-internal-error with a generic status-message, not the exception text', async () => {
  const failing = () => Promise.reject(new Error('ENOSPC: no space left on device, open /data/spool/secret'));
  const answer = await service(failing).handle('ABCDEFGH', request(), ORIGIN);
  assert.equal(decodeMessage(answer).code, IPP_STATUS.internalError);
  const message = statusMessage(answer);
  assert.ok(message.length > 0);
  assert.doesNotMatch(message, /ENOSPC|secret|\/data/);
});
