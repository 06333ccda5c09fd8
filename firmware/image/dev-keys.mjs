// The throwaway development CA and signer a build uses when given no keys: made once under .cache/image/dev-ca
// (git-ignored), never committed; a company's release is built with its own (--keyring, --sign-cert, --sign-key).
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './host-tools.mjs';
import { imageCache } from './paths.mjs';

/** { keyring, cert, key } of the development CA: the CA certificate the image trusts, and a signer it issued. */
export function developmentKeys() {
  const dir = join(imageCache, 'dev-ca');
  const keys = { keyring: join(dir, 'ca.cert.pem'), cert: join(dir, 'signer.cert.pem'), key: join(dir, 'signer.key.pem') };
  if (!existsSync(keys.key)) makeCa(dir, 'printproxy development');
  return keys;
}

/** Makes a CA and a signer it issued in `dir` (ca.cert.pem, ca.key.pem, signer.cert.pem, signer.key.pem), named `name`. */
export function makeCa(dir, name) {
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const p = (f) => join(partial, f);
  run('openssl', ['req', '-x509', '-newkey', 'rsa:3072', '-nodes', '-keyout', p('ca.key.pem'), '-out', p('ca.cert.pem'), '-days', '3650',
    '-subj', `/CN=${name} CA`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  run('openssl', ['req', '-newkey', 'rsa:3072', '-nodes', '-keyout', p('signer.key.pem'), '-out', p('signer.csr'), '-subj', `/CN=${name} release signer`]);
  writeFileSync(p('signer.ext'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n');
  run('openssl', ['x509', '-req', '-in', p('signer.csr'), '-CA', p('ca.cert.pem'), '-CAkey', p('ca.key.pem'), '-CAcreateserial',
    '-out', p('signer.cert.pem'), '-days', '3650', '-extfile', p('signer.ext')]);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}
