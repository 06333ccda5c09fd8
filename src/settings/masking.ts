// Masks secrets in GET answers (decisions.md): passwords and client secrets as ********, the key as ****1234.
import type { ExtensionSettings, Share } from '../schemas/settings';

const MASK = '********';

/** `****` plus the last 4 characters of the key. */
export function maskApiKey(key: string): string {
  return `****${key.slice(-4)}`;
}

/** A share with its password masked (empty passwords stay empty). */
export function maskShare(share: Share): Share {
  return { ...share, password: share.password ? MASK : '' };
}

/** Extension settings with every client secret masked. */
export function maskExtension(ext: ExtensionSettings): ExtensionSettings {
  return { ...ext, instances: ext.instances.map((i) => ({ ...i, clientSecret: i.clientSecret ? MASK : '' })) };
}

/** True when a written secret is the mask itself, meaning "keep the stored value". */
export function isMask(value: string | undefined): boolean {
  return value === MASK;
}
