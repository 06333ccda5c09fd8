// fast-check arbitraries for field values: plausible ones, hostile ones, and objects whose fields are either.
import fc from 'fast-check';

/** Any JSON-able value of any type, including odd numbers and keys, a few levels deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 1, 9999, 10000, 65536, '', ' ', '\u0000', '\ud800', '\uffff', '__proto__', 'constructor', '0', 'true', 'null', '[]', '{}'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', ''), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.integer({ min: 200, max: 5000 }).map((n) => 'x'.repeat(n)),
);

/** Mostly `good`, sometimes a hostile value of any type. */
export function field<T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: good as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: hostileValue });
}

/** An object of the given fields: often all of them plausible, else each optional and possibly hostile, sometimes with an unknown extra field. */
export function looseObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const wrapped = Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, field(a)]));
  const mutated = fc
    .tuple(fc.record(wrapped, { requiredKeys: [] }), fc.option(fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', ''), hostileValue), { freq: 6 }))
    .map(([obj, extra]) => (extra ? { ...obj, [extra[0]]: extra[1] } : obj));
  return fc.oneof({ weight: 1, arbitrary: fc.record(fields) }, { weight: 1, arbitrary: mutated });
}

/** Hosts of every shape; none can leave the machine because the run is in a loopback-only namespace. */
export const host = fc.oneof(
  fc.constantFrom('127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0', '10.0.0.5', '192.168.1.50', 'printer.local', 'zebra', 'fe80::1%lo', '255.255.255.255', 'a..b', '-', '_', '1.2.3', '999.1.1.1'),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.')),
  fc.domain(),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
  fc.integer({ min: 250, max: 300 }).map((n) => 'h'.repeat(n)),
);

/** Tags: valid ones from a small set (so tag_ targets hit), or odd strings. */
export const tag = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('front', 'Back', 'labels', 'a.b-c_d', 'X') }, { weight: 1, arbitrary: fc.string({ maxLength: 70 }) });

/** Short text of any characters, sometimes long. */
export const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.integer({ min: 250, max: 1100 }).map((n) => 'é'.repeat(n)));

/** Local paths a print or share may name, hostile ones included. */
export const localPath = fc.constantFrom('/', '/etc/passwd', '/tmp', '/proc/self/status', '/dev/null', '/nonexistent/x', '/../../etc/shadow', '/tmp/../etc', '/a\u0000b', '//', '/.');
