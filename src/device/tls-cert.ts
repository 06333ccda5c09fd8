// The HTTPS certificate: a configured pair, or a self-signed one generated on first start and kept.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../settings/atomic-file';

/** Certificate and key file paths for the TLS listener. */
export interface TlsPair {
  certFile: string;
  keyFile: string;
}

/** Returns the configured pair, else `tls-cert.pem`+`tls-key.pem` in the data dir, generating them once (EC P-256, 10 years). */
export async function ensureTlsPair(dataDir: string, hostname: string, configured?: TlsPair): Promise<TlsPair> {
  if (configured) return configured;
  const certFile = join(dataDir, 'tls-cert.pem');
  const keyFile = join(dataDir, 'tls-key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) return { certFile, keyFile };
  // loaded only here: the x509 stack behind it is a large share of the bundle, needed once per device
  const { default: selfsigned } = await import('selfsigned');
  const now = new Date();
  const pems = await selfsigned.generate([{ name: 'commonName', value: hostname }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + 3650 * 24 * 3600 * 1000),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: hostname }, { type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  });
  await writeFileAtomic(keyFile, pems.private);
  await writeFileAtomic(certFile, pems.cert);
  return { certFile, keyFile };
}
