// GET /languages: every language of the table, in rank order, as its schema says; the printer schema's contents are the same list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { CONTENT_KINDS, languagesByRank } from '../../../src/languages';
import { languageRoutes } from '../../../src/http/routes/languages';
import { LanguageListSchema } from '../../../src/schemas/language';
import { ContentKindSchema } from '../../../src/schemas/printer';

test('the route lists each language of the table with its content, name, default resolution and transports', async () => {
  const [route] = languageRoutes();
  assert.equal(route.method, 'get');
  assert.equal(route.path, '/languages');
  const answer = (await (route.handler as (...args: unknown[]) => unknown)({})) as { content: unknown };
  assert.ok(Value.Check(LanguageListSchema, answer.content), 'the answer fits its schema');
  const list = answer.content as Array<{ content: string; displayName: string; defaultDpi: number | null }>;
  assert.deepEqual(list.map((l) => l.content), languagesByRank().map((l) => l.content));
  assert.ok(list.some((l) => l.defaultDpi === null), 'a document language renders by itself');
  assert.ok(list.every((l) => l.displayName.length > 0));
});

test('the printer schema takes exactly the contents of the table', () => {
  for (const content of CONTENT_KINDS) assert.ok(Value.Check(ContentKindSchema, content), content);
  assert.equal(Value.Check(ContentKindSchema, 'no-such-language'), false);
  assert.deepEqual(new Set(CONTENT_KINDS), new Set(languagesByRank().map((l) => l.content)));
});
