// Versioned migrations of settings.json; each step takes version N to N+1.

type Json = Record<string, unknown>;

/** Steps indexed by the version they upgrade from. Version 0 is a file written before `version` existed. */
const STEPS: Record<number, (old: Json) => Json> = {
  0: (old) => ({
    allowedOrigins: ['*'],
    printerOverrides: {},
    shares: [],
    extensions: [],
    printers: [],
    alias: '',
    subDomain: '',
    ...old,
    version: 1,
  }),
};

/** The version this build writes. */
export const SETTINGS_VERSION = 1;

/** Upgrades a parsed settings object to SETTINGS_VERSION; unknown future versions are returned as they are. */
export function migrateSettings(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  let current = raw as Json;
  let version = typeof current.version === 'number' ? current.version : 0;
  while (version < SETTINGS_VERSION && STEPS[version]) {
    current = STEPS[version](current);
    version += 1;
  }
  return current;
}
