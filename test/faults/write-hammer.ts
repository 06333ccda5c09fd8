// Child of the SIGKILL test: runs the write scenario, acknowledging each step on stdout, and kills itself at file operation n.
import { installKillAtOp, type KillMode } from './kill-at-op';
import { writeScenario } from './write-scenario';

async function main(): Promise<void> {
  const [dataDir, killAt, mode] = process.argv.slice(2);
  const ops = await installKillAtOp(Number(killAt), mode as KillMode);
  const { steps } = writeScenario(dataDir);
  for (const step of steps) {
    await step.run();
    // stdout is a pipe: Node writes it synchronously on Linux, so an acknowledgement is out before any later kill
    process.stdout.write(`ack ${step.name}\n`);
  }
  process.stdout.write(`ops ${ops().join(',')}\n`);
}

void main();
