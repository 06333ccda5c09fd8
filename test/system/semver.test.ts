// Semver precedence for the no-downgrade rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions, isSemver } from '../../src/system/semver';

test('orders versions by semver precedence: numbers numerically, a release above its pre-releases, build metadata ignored', () => {
  const ordered = ['0.9.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.2.0', '1.10.0', '2.0.0'];
  for (let i = 1; i < ordered.length; i += 1) {
    assert.equal(compareVersions(ordered[i - 1], ordered[i]), -1, `${ordered[i - 1]} < ${ordered[i]}`);
    assert.equal(compareVersions(ordered[i], ordered[i - 1]), 1, `${ordered[i]} > ${ordered[i - 1]}`);
  }
  assert.equal(compareVersions('1.4.0+build.7', '1.4.0'), 0);
  assert.equal(compareVersions('v1.4.0', '1.4.0'), 0);
  assert.equal(compareVersions('nightly', '0.0.1'), -1, 'what is not semver sorts first');
  assert.ok(isSemver('1.5.0-rc.1') && !isSemver('1.5') && !isSemver('latest'));
});
