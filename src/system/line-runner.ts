// Runs a long command whose stdout is read line by line as it comes (`rauc install` prints its progress that way).

/** Runs `file args`, calling `onLine` for each stdout line; resolves on exit 0, rejects with its stderr otherwise (ENOENT when it does not exist). */
export type LineRunner = (file: string, args: string[], onLine: (line: string) => void) => Promise<void>;

/** The default runner over child_process.spawn (loaded at the first command); stderr is kept (its last 4 KiB) for the error. */
export const spawnLines: LineRunner = (file, args, onLine) =>
  new Promise((resolve, reject) => {
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (partial) onLine(partial);
      if (code === 0) resolve();
      else reject(new Error(`${file} ${args[0] ?? ''} exited with ${code ?? signal}: ${stderr.trim()}`));
    });
  });
