import { readMeta, writeMeta } from "./data/directory";
import type { FleetDb } from "./db";

const META_ORG = "org";
/** Owners once known, by the object's database: an owner never changes, and every call checks it. */
const knownOwners = new WeakMap<FleetDb, string>();

/**
 * The organisation this object belongs to: set by its first call, and every later call must name
 * the same one, so an object never answers for another organisation, whatever a caller passes.
 */
export function claimOwner(db: FleetDb, orgId: string): void {
  const owner = ownerOf(db);
  if (owner === null) {
    writeMeta(db, META_ORG, orgId);
    knownOwners.set(db, orgId);
  } else if (owner !== orgId) throw new Error("This fleet store belongs to another organisation");
}

/** The organisation the object belongs to; null before its first call. */
export function ownerOf(db: FleetDb): string | null {
  const known = knownOwners.get(db);
  if (known !== undefined) return known;
  const owner = readMeta(db, META_ORG);
  if (owner !== null) knownOwners.set(db, owner);
  return owner;
}
