// Types of dev-keys.mjs for the TypeScript callers (the image tests).

/** The development CA's certificate (keyring) and the signer it issued. */
export function developmentKeys(): { keyring: string; cert: string; key: string };
/** Makes a CA and a signer it issued in `dir` (ca.cert.pem, ca.key.pem, signer.cert.pem, signer.key.pem), named `name`. */
export function makeCa(dir: string, name: string): void;
