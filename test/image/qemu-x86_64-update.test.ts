// Updates of the qemu-x86_64 image under qemu: bad bundles and a downgrade refused, a newer release installed over HTTP.
import { updateScenarios } from './helpers/update-scenarios';

updateScenarios('qemu-x86_64', { refusals: true });
