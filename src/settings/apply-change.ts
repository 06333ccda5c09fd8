// Applies a validated partial update to a persisted object: given fields are set, `null` ones are removed.

/** Copies each defined field of `change` onto `target`; a field that is `null` is deleted (back to its default). */
export function applyChange(target: object, change: object): void {
  const out = target as Record<string, unknown>;
  for (const [key, value] of Object.entries(change)) {
    if (value === null) delete out[key];
    else if (value !== undefined) out[key] = value;
  }
}
