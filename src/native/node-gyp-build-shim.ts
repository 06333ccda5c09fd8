// Bundle-time stand-in for node-gyp-build: loads `usb.node` from the native dir instead of a package prebuild folder.
import { dlopenNative, findNative } from './load-native';

/** Loads the usb addon; `packageDir` (the original argument) is the last place searched. */
export = function nodeGypBuild(packageDir: string): unknown {
  const file = findNative('usb.node', { nativeDir: process.env.PRINTPROXY_NATIVE_DIR, mainScript: process.argv[1] }, []);
  if (!file) throw new Error(`usb native addon usb.node not found beside the executable (package dir ${packageDir})`);
  return dlopenNative(file);
};
