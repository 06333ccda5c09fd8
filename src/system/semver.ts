// Semantic version precedence (semver.org 2.0.0 section 11), for the no-downgrade rule of updates.

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** True when `text` is a semantic version (an optional leading `v`, build metadata allowed). */
export function isSemver(text: string): boolean {
  return SEMVER.test(text.trim());
}

/**
 * Compares two versions by semver precedence: negative when `a` is older, 0 when equal (build metadata ignored), positive
 * when newer. A version that is not semver sorts before every one that is, and two such compare as strings.
 */
export function compareVersions(a: string, b: string): number {
  const ma = SEMVER.exec(a.trim());
  const mb = SEMVER.exec(b.trim());
  if (!ma || !mb) return ma ? 1 : mb ? -1 : a.localeCompare(b);
  for (let i = 1; i <= 3; i += 1) {
    const diff = Number(ma[i]) - Number(mb[i]);
    if (diff !== 0) return Math.sign(diff);
  }
  return comparePrerelease(ma[4], mb[4]);
}

/** A release outranks its pre-releases; identifiers compare numerically when both are numbers, else as ASCII. */
function comparePrerelease(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    if (pa[i] === undefined) return -1;
    if (pb[i] === undefined) return 1;
    const na = /^\d+$/.test(pa[i]);
    const nb = /^\d+$/.test(pb[i]);
    if (na && nb) {
      const diff = Number(pa[i]) - Number(pb[i]);
      if (diff !== 0) return Math.sign(diff);
    } else if (na !== nb) return na ? -1 : 1;
    else if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return 0;
}
