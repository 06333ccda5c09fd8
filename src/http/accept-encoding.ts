// Picks the response content coding from an Accept-Encoding header (RFC 9110 section 12.5.3).

/** Codings the static server can send besides identity, in order of preference. */
export type ContentCoding = 'br' | 'gzip';

const PREFERENCE: readonly ContentCoding[] = ['br', 'gzip'];

/** The preferred coding the client accepts with q > 0 (brotli before gzip), or null for identity. */
export function pickEncoding(acceptEncoding: string): ContentCoding | null {
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const wildcard = weights.get('*') ?? 0;
  for (const coding of PREFERENCE) {
    const weight = weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? wildcard;
    if (weight > 0) return coding;
  }
  return null;
}
