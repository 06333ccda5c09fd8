// npm run image -- --board qemu-x86_64|qemu-aarch64 [--version V] [--keyring PEM] [--sign-cert PEM --sign-key PEM]
//                  [--app FILE] [--out DIR]
// Builds dist/image/<board>/disk.img with the stand-in build (build-image.mjs); see docs/device-image.md.
import { buildImage } from './build-image.mjs';

const USAGE = 'npm run image -- --board qemu-x86_64|qemu-aarch64 [--version V] [--keyring PEM] [--sign-cert PEM --sign-key PEM] [--app FILE] [--out DIR (replaced)]';

/** `--name value` pairs of the command line. */
function parseArgs(argv) {
  const names = { '--board': 'board', '--version': 'version', '--keyring': 'keyring', '--sign-cert': 'signCert', '--sign-key': 'signKey', '--app': 'app', '--out': 'out' };
  const options = {};
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const name = names[flag];
    if (!name) throw new Error(`unknown argument ${argv[i]}\nusage: ${USAGE}`);
    options[name] = inline ?? argv[++i];
    if (options[name] === undefined) throw new Error(`${flag} needs a value\nusage: ${USAGE}`);
  }
  if (!options.board) throw new Error(`usage: ${USAGE}`);
  if (options.keyring && !(options.signCert && options.signKey)) throw new Error('--keyring goes with --sign-cert and --sign-key');
  return options;
}

try {
  buildImage(parseArgs(process.argv.slice(2)));
} catch (error) {
  console.error(`image: ${error.message}`);
  process.exit(1);
}
