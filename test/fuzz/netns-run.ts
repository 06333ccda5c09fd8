// Runs a command under scripts/in-netns.sh from a test: output collected, the whole namespace killed past a limit.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { IN_NETNS } from './netns-guard';

const ROOT = resolve(__dirname, '..', '..');

/** Runs `args` under scripts/in-netns.sh; resolves with the exit code and everything printed. */
export function runInNetns(args: string[], limitMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((ok) => {
    // a node:test child would otherwise report to this test runner instead of running its tests
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn(IN_NETNS, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // unshare --kill-child takes the whole namespace (daemon included) down with it
    const killer = setTimeout(() => {
      output += `\n[killed after ${limitMs} ms]`;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('close', (code) => {
      clearTimeout(killer);
      ok({ code, output });
    });
  });
}

