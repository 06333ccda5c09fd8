// Types of boards.mjs for the TypeScript callers (the image tests).

/** A board of the stand-in build (boards.mjs BOARDS) with its name. */
export interface Board {
  name: string;
  arch: 'x64' | 'arm64';
  debArch: string;
  packages: string[];
  kernelFile: string;
  console: string;
  grub: boolean;
  rootModules: string[];
  initramfsModules: string[];
  firmware: string[];
  firmwarePackage: string;
  qemuPackage: string;
  qemu: (disk: string, firmware: string) => string[];
}
/** Board name → its description (without the name). */
export const BOARDS: Record<string, Omit<Board, 'name'>>;
/** The board called `name`; throws listing the boards for an unknown one. */
export function board(name: string): Board;
/** The boot firmware file of a board (OVMF, U-Boot), or null when its Debian package is not installed. */
export function bootFirmware(b: Board): string | null;
