// Which folders local-file content may be read from: the data dir's files/, and share mount points that are real
// mounts under the configured share root (the image's /mnt/shares) and do not overlap the data dir.
import { readFileSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';

/** What decides the allowed roots: the data dir, the one share root, and the share paths as configured. */
export interface ShareRootPolicy {
  dataDir: string;
  shareRoot: string;
  sharePaths: readonly string[];
  /** Mount points of this process's mount namespace; reads /proc/self/mountinfo by default. */
  mountPoints?: () => ReadonlySet<string>;
}

/** The allowed roots as real paths: files/ (when it exists), then each share path that qualifies. */
export function allowedRoots(policy: ShareRootPolicy): string[] {
  const files = real(`${policy.dataDir}${sep}files`);
  const data = real(policy.dataDir);
  const shareRoot = real(policy.shareRoot);
  const roots = files ? [files] : [];
  if (!shareRoot) return roots;
  const mounts = (policy.mountPoints ?? mountPoints)();
  for (const path of policy.sharePaths) {
    const share = real(path);
    if (!share || !inside(share, shareRoot) || share === shareRoot || !mounts.has(share)) continue;
    if (data && (inside(data, share) || inside(share, data))) continue;
    roots.push(share);
  }
  return roots;
}

/** Whether `path` is `root` or lies below it (both real paths). */
export function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Mount points listed in /proc/self/mountinfo (field 5, octal escapes undone); empty when it cannot be read. */
export function mountPoints(): ReadonlySet<string> {
  let text = '';
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return new Set();
  }
  const points = new Set<string>();
  for (const line of text.split('\n')) {
    const field = line.split(' ')[4];
    if (field) points.add(field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))));
  }
  return points;
}
