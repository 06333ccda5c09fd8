// Types of build-image.mjs for the TypeScript callers (the image tests).

/** What `npm run image` takes: the board, and optionally the release version, the keys and a stand-in executable. */
export interface ImageOptions {
  board: string;
  version?: string;
  keyring?: string;
  signCert?: string;
  signKey?: string;
  app?: string;
  /** The output folder (default dist/image/<board>). */
  out?: string;
}
/** Builds the image (or finds it up to date); returns its disk.img's path. */
export function buildImage(options: ImageOptions): string;
