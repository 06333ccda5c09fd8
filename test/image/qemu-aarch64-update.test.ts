// Updates of the qemu-aarch64 image under qemu: a newer release installed over HTTP.
import { updateScenarios } from './helpers/update-scenarios';

updateScenarios('qemu-aarch64', { refusals: false });
