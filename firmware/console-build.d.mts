// Types of console-build.mjs for the TypeScript callers (tests and bench).

/** Most the console's JS and CSS may weigh gzipped, in bytes. */
export const CONSOLE_BUDGET_BYTES: number;
/** Builds the console; resolves with its files (name → bytes) and the gzipped size of its JS and CSS in bytes. */
export function buildConsole(): Promise<{ files: Record<string, Buffer>; gzipBytes: number }>;
/** Replaces `dir` with the console's files. */
export function writeConsole(files: Record<string, Buffer>, dir: string): void;
/** Builds, prints the gzipped size, and fails above the budget; resolves with the files. */
export function buildConsoleChecked(): Promise<Record<string, Buffer>>;
