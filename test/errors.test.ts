// The one error catalogue: every error class of src/ lives in src/errors.ts and carries a code of the catalogue.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import * as errors from '../src/errors';
import { ERROR_STATUS } from '../src/http/error-status';

const SRC = resolve(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

test('no error class is declared outside src/errors.ts but the libusb seam\'s UsbError (documented there)', () => {
  const outside: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const name = relative(SRC, file);
    if (name === 'errors.ts') continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/class (\w+) extends (\w*Error)\b/g)) outside.push(`${name}: ${match[1]} extends ${match[2]}`);
  }
  assert.deepEqual(outside, ['usb/usb-backend.ts: UsbError extends Error']);
});

test('each error of the catalogue carries a code of its list, and each request or device code has one HTTP answer', () => {
  const samples: Array<[Error & { code: string }, readonly string[]]> = [
    [new errors.ZplParseError('x'), errors.DEVICE_ERROR_CODES],
    [new errors.DeviceIdError('x'), errors.DEVICE_ERROR_CODES],
    [new errors.IppDecodeError('x'), errors.DEVICE_ERROR_CODES],
    [new errors.RenderQueueFullError(3), errors.DEVICE_ERROR_CODES],
    [new errors.ChunkedFramingError('x'), errors.REQUEST_ERROR_CODES],
    [new errors.IppFault(0x0400, 'x'), errors.REQUEST_ERROR_CODES],
    [new errors.IppFault(0x0500, 'x'), errors.REQUEST_ERROR_CODES],
    [new errors.UsageError('x'), errors.PROCESS_ERROR_CODES],
    [new errors.UnsupportedRuntimeError('x'), errors.PROCESS_ERROR_CODES],
    [new errors.NativeCacheError('x'), errors.PROCESS_ERROR_CODES],
    [new errors.NativeFolderError('x'), errors.PROCESS_ERROR_CODES],
  ];
  for (const [err, codes] of samples) assert.ok(codes.includes(err.code), `${err.name}: ${err.code}`);
  assert.deepEqual(Object.keys(ERROR_STATUS).sort(), [...errors.REQUEST_ERROR_CODES, ...errors.DEVICE_ERROR_CODES].sort());
});

test('no code is in two lists of the catalogue, and no synonym of another stays (one code a failure)', () => {
  const all = [...errors.REQUEST_ERROR_CODES, ...errors.DEVICE_ERROR_CODES, ...errors.PROCESS_ERROR_CODES, ...errors.FLEET_CLIENT_ERROR_CODES];
  assert.equal(new Set(all).size, all.length);
  for (const synonym of ['PRINTER_NOT_READY', 'SPOOL_FAILED']) assert.ok(!(all as string[]).includes(synonym), synonym);
});
