// Runs CUPS's ipptool (Debian cups-ipp-utils) on one of its conformance files and sorts the tests by outcome.
import { execFile } from 'node:child_process';

/** Tests of one ipptool run by outcome, and its exit code and whole output. */
export interface IpptoolRun {
  code: number;
  passed: string[];
  failed: string[];
  skipped: string[];
  output: string;
}

/** `ipptool -tf <document> -T 30 <uri> <testFile>` in `cwd` (where the sample documents are). */
export function ipptool(cwd: string, document: string, uri: string, testFile: string): Promise<IpptoolRun> {
  return new Promise((resolve) => {
    execFile('ipptool', ['-tf', document, '-T', '30', uri, testFile], { cwd, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      const named = (outcome: string) => [...output.matchAll(new RegExp(`^\\s{4}(\\S.*?)\\s+\\[${outcome}\\]`, 'gm'))].map((m) => m[1]);
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, passed: named('PASS'), failed: named('FAIL'), skipped: named('SKIP'), output });
    });
  });
}
