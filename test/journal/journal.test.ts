// The journal: group commit, replay past a torn line, compaction (live lines kept, a crash mid-way harmless), failed writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, promises as fsp, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Journal, type Compaction } from '../../src/journal/journal';
import { silentLogger } from '../../src/log';
import { tempDir } from '../helpers/temp-dir';

type Method = (...args: unknown[]) => Promise<unknown>;

/** Replaces FileHandle's `name` for the duration of `body` (every handle shares one prototype). */
async function withHandleMethod<T>(name: string, wrap: (original: Method) => Method, body: () => Promise<T>): Promise<T> {
  const probe = await fsp.open('/dev/null', 'r');
  const proto = Object.getPrototypeOf(probe) as Record<string, Method>;
  await probe.close();
  const original = proto[name];
  proto[name] = wrap(original);
  try {
    return await body();
  } finally {
    proto[name] = original;
  }
}

async function lines(journal: Journal): Promise<string[]> {
  const out: string[] = [];
  for await (const line of journal.replay()) out.push(line.text);
  return out;
}

const fileIn = (prefix: string) => join(tempDir(prefix), 'j.log');

test('appends that arrive together are written in fewer fsyncs than lines, in order, each with its offset', async () => {
  const journal = await Journal.open(fileIn('journal'), silentLogger);
  let syncs = 0;
  const offsets = await withHandleMethod(
    'datasync',
    (original) =>
      function (this: unknown, ...args: unknown[]) {
        syncs += 1;
        return original.apply(this, args);
      },
    () => Promise.all(Array.from({ length: 50 }, (_, i) => journal.append(`line ${i}`))),
  );
  assert.ok(syncs >= 1 && syncs < 50, `${syncs} fsyncs for 50 lines`);
  assert.deepEqual(await lines(journal), Array.from({ length: 50 }, (_, i) => `line ${i}`));
  for (const [i, offset] of offsets.entries()) assert.equal(await journal.read(offset, `line ${i}`.length), `line ${i}`);
  await journal.close();
});

test('a torn last line is not replayed, and is cut off before the next line', async () => {
  const file = fileIn('journal-torn');
  const first = await Journal.open(file, silentLogger);
  await first.append('{"a":1}');
  await first.close();
  appendFileSync(file, '{"b":');
  const again = await Journal.open(file, silentLogger);
  assert.deepEqual(await lines(again), ['{"a":1}']);
  await again.append('{"c":3}');
  await again.close();
  assert.deepEqual(await lines(await Journal.open(file, silentLogger)), ['{"a":1}', '{"c":3}']);
});

/** A journal of keys where `live` says which keys still count; compacts from 1 KiB. */
async function keyJournal(file: string, live: Map<string, number>): Promise<Journal> {
  const compaction: Compaction = {
    aboveBytes: 1024,
    liveBytes: () => [...live.keys()].reduce((n, k) => n + k.length + 1, 0),
    live: () => [...live.keys()].map((k) => ({ text: `${k}\n` })),
    moved: (r) => [...live.keys()].forEach((k, i) => live.set(k, r.starts[i])),
  };
  return Journal.open(file, silentLogger, compaction);
}

test('compaction keeps only the live lines, bounds the file, and moves their offsets', async () => {
  const file = fileIn('journal-compact');
  const live = new Map<string, number>();
  const journal = await keyJournal(file, live);
  for (let i = 0; i < 500; i += 1) {
    const key = `key-${String(i).padStart(4, '0')}-${'x'.repeat(40)}`;
    await journal.append(key, (offset) => {
      if (i % 100 === 0) live.set(key, offset);
    });
  }
  assert.ok(statSync(file).size <= 2048, `journal is ${statSync(file).size} bytes`);
  for (const [key, offset] of live) assert.equal(await journal.read(offset, key.length), key);
  await journal.close();
  const kept = await lines(await Journal.open(file, silentLogger));
  for (const key of live.keys()) assert.ok(kept.includes(key), `${key} kept`);
  assert.deepEqual(readdirSync(join(file, '..')), ['j.log'], 'no temporary is left');
});

test('a crash during a compaction (its temporary written, not yet renamed) leaves the old journal, and the temporary is removed', async () => {
  const file = fileIn('journal-crash');
  const journal = await Journal.open(file, silentLogger);
  await journal.append('one');
  await journal.append('two');
  await journal.close();
  writeFileSync(join(file, '..', `.j.log.${process.pid}.99.tmp`), 'two\n');
  const again = await Journal.open(file, silentLogger);
  assert.deepEqual(await lines(again), ['one', 'two']);
  assert.deepEqual(readdirSync(join(file, '..')), ['j.log']);
  await again.close();
});

test('a compaction that fails (the rename refused) leaves the journal and the offsets as they were', async () => {
  const file = fileIn('journal-rename');
  const journal = await Journal.open(file, silentLogger);
  const offset = await journal.append('kept');
  await journal.append('gone');
  const rename = fsp.rename;
  fsp.rename = () => Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' }));
  let moved = false;
  try {
    await assert.rejects(journal.rewrite(() => [{ text: 'kept\n' }], () => (moved = true)));
  } finally {
    fsp.rename = rename;
  }
  assert.equal(moved, false);
  assert.equal(await journal.read(offset, 4), 'kept');
  assert.deepEqual(await lines(journal), ['kept', 'gone']);
  assert.deepEqual(readdirSync(join(file, '..')), ['j.log']);
  await journal.close();
});

test('a failed write rejects without applying its lines; the next write starts clean', async () => {
  const file = fileIn('journal-fail');
  const journal = await Journal.open(file, silentLogger);
  await journal.append('before');
  let applied = false;
  await withHandleMethod(
    'datasync',
    () => () => Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })),
    () => assert.rejects(journal.append('lost', () => (applied = true))),
  );
  assert.equal(applied, false, 'memory unchanged');
  assert.equal(journal.size, 'before\n'.length);
  await journal.append('after');
  assert.deepEqual(await lines(journal), ['before', 'after']);
  await journal.close();
});
