// Entry point of printproxyd: parses the command line, runs the daemon or a sub-command, handles signals.
import { DEFAULT_DATA_DIR, parseCommandLine, USAGE } from './cli';
import { UsageError } from './errors';
import { startDaemon } from './daemon';
import { versionLine } from './build-info';
import { createLogger } from './log';
import { runUsbListCommand } from './usb/usb-list-command';
import { libusbBackend } from './usb/libusb-backend';
import { prepareNatives } from './native/prepare-natives';
import { applyV8Flags } from './v8-tuning';

async function main(): Promise<number> {
  let command;
  try {
    command = parseCommandLine(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
  switch (command.kind) {
    case 'help':
      process.stdout.write(USAGE + '\n');
      return 0;
    case 'version':
      process.stdout.write(versionLine() + '\n');
      return 0;
    case 'render':
    case 'usb-list':
      return runSubcommand(command.kind, command.args);
    case 'fleet':
      return runFleet(command.args);
    case 'serve':
      return serve(command.options);
  }
}

async function serve(options: Parameters<typeof startDaemon>[0]): Promise<number> {
  applyV8Flags(process.env);
  const logger = createLogger(options.logLevel);
  // the handlers come first: `listening on http` is printed while the later doors still start, and a SIGTERM then must
  // stop the daemon once it is up, not kill the process by the default action (exit by signal, nothing closed)
  const signals = stopSignals();
  options.nativeDir = await prepareNatives(options.nativeDir, options.dataDir, (line) => logger.warn(line));
  const daemon = await startDaemon(options, logger, (line) => process.stdout.write(line + '\n'), { usb: libusbBackend });
  const signal = await signals;
  logger.info('stopping', { signal });
  return daemon.stop().then(
    () => 0,
    (err: unknown) => {
      logger.error('stop failed', { error: String(err) });
      return 1;
    },
  );
}

/** Resolves with the first SIGTERM or SIGINT, caught from now on (a second one is ignored while the first stops the daemon). */
function stopSignals(): Promise<string> {
  return new Promise((resolve) => {
    process.on('SIGTERM', () => resolve('SIGTERM'));
    process.on('SIGINT', () => resolve('SIGINT'));
  });
}

async function runSubcommand(kind: 'render' | 'usb-list', args: string[]): Promise<number> {
  if (kind === 'render') {
    const { runRenderCommand } = await import('./render/render-command');
    const { processRenderIo } = await import('./render/render-command-io');
    return runRenderCommand(args, processRenderIo());
  }
  // usb-list loads the libusb addon: inside the single executable it must be on disk first
  await prepareNatives(process.env.PRINTPROXY_NATIVE_DIR || undefined, process.env.PRINTPROXY_DATA_DIR || DEFAULT_DATA_DIR, (line) => process.stderr.write(`${line}\n`));
  return runUsbListCommand(libusbBackend(), (t) => process.stdout.write(t), (t) => process.stderr.write(t));
}

async function runFleet(args: string[]): Promise<number> {
  const { runFleetCommand } = await import('./fleet/client/fleet-command');
  const { processFleetIo } = await import('./fleet/client/fleet-command-io');
  return runFleetCommand(args, process.env, processFleetIo());
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`printproxyd: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
