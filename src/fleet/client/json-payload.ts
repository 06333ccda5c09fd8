// Reads an MQTT payload as a JSON object, the shape every fleet message body has.

/** The payload parsed as a JSON object (UTF-8), or null when it is not JSON or not an object. */
export function parseJsonObject(payload: Uint8Array): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload).toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  return value as Record<string, unknown>;
}
