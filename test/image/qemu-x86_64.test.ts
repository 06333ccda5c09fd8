// The qemu-x86_64 image, built by the stand-in build (npm run image) and booted on its reference qemu machine.
import { applianceScenarios } from './helpers/appliance-scenarios';

applianceScenarios('qemu-x86_64');
