// Where a validation issue points in the request: absent (the field is missing) or present with the
// wrong shape — the peers word the two differently.

/** The value at a zod issue's path in the input (undefined when absent). */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input;
  for (const key of path) at = at !== null && typeof at === "object" ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}
