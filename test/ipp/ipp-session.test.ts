// The IPP client's naming of status codes: one table of codes and keywords, shared with the IPP door.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IPP_STATUS } from '../../src/ipp/ipp-constants';
import { statusName } from '../../src/ipp/ipp-session';

test('every status code the IPP door answers has its RFC 8011 keyword in the client\'s error text', () => {
  assert.equal(statusName(IPP_STATUS.busy), 'server-error-busy (0x0507)');
  assert.equal(statusName(IPP_STATUS.versionNotSupported), 'server-error-version-not-supported (0x0503)');
  assert.equal(statusName(IPP_STATUS.compressionNotSupported), 'client-error-compression-not-supported (0x040f)');
  for (const code of Object.values(IPP_STATUS)) assert.doesNotMatch(statusName(code), /^status /, `0x${code.toString(16)} has a name`);
  assert.equal(statusName(0x0499), 'status (0x0499)');
});
