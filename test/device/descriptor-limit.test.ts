// The open-file limit read from /proc, and the keyless doors' share of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { API_DESCRIPTORS, descriptorLimit, keylessDoorLimits, parseDescriptorLimit } from '../../src/device/descriptor-limit';

const limits = (soft: string) => `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 4096                 files\n`;

test('reads the soft limit; unlimited and unreadable are handled', () => {
  assert.equal(parseDescriptorLimit(limits('8192')), 8192);
  assert.equal(parseDescriptorLimit(limits('unlimited')), Number.MAX_SAFE_INTEGER);
  assert.equal(parseDescriptorLimit('nothing here'), 1024);
  const own = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
  assert.equal(descriptorLimit(), Number(own), 'this process\'s own limit is read');
});

test('the doors get half of what is left above the API\'s share, at least 16', () => {
  assert.equal(keylessDoorLimits(8192).total, (8192 - API_DESCRIPTORS) / 2);
  assert.equal(keylessDoorLimits(1024).total, 384);
  assert.equal(keylessDoorLimits(100).total, 16);
});
