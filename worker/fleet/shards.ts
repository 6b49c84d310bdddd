import { FLEET_STORE_WARNING_SHARE } from "../../schema/api/fleet-stores";
import type { Env } from "../env";
import { countSystems, readMeta, writeMeta } from "./data/directory";
import {
  countOwnSystems,
  countShardSystems,
  listShardSystems,
  recordShardBytes,
  shardFill,
  shardNumbers,
  shardSystemIds,
  shardsOfSystems,
  unlistSystemsBut,
  unseenSystems,
} from "./data/shards";
import type { FleetDb } from "./db";
import { storeBoundBytes } from "./size-watch";
import type { FleetStore } from "./store";
import type { DirectoryEntry } from "./types";

/*
 * A large organisation's readings and rollups are spread over shards: further fleet stores of the
 * same class, each holding a bounded set of systems (their directory entries, points, rollups,
 * loss accounts, detection and retention). The organisation's own object (shard 0) holds the
 * systems it took first, the map of which shard holds every other system, the read models and
 * the sockets; it sends each write to the store that holds its systems and builds its read
 * models from every store's parts (read-models/parts.ts).
 *
 * Systems never move: a system new to the organisation goes to the open store, and a store
 * closes to new systems at FLEET_SHARD_SYSTEMS systems or at 70 % of its bound (its size watch),
 * whichever comes first. At ~1 MB a system-decade (docs/scale.md) 5,000 systems stay under half
 * of the 10 GB a store may hold, so a closed store's growth (its systems' rollups) stays bounded.
 * Small organisations never open a shard.
 */

/** Systems a store takes before new ones go to the next shard, unless FLEET_SHARD_SYSTEMS says otherwise. */
export const DEFAULT_SHARD_SYSTEMS = 5_000;

const META_SHARD = "shard";

/** Systems one store takes: FLEET_SHARD_SYSTEMS when a positive integer, else DEFAULT_SHARD_SYSTEMS. */
export function shardSystems(env: Pick<Env, "FLEET_SHARD_SYSTEMS">): number {
  const cap = Number(env.FLEET_SHARD_SYSTEMS ?? DEFAULT_SHARD_SYSTEMS);
  return Number.isInteger(cap) && cap > 0 ? cap : DEFAULT_SHARD_SYSTEMS;
}

/** A shard's object name: derived from its organisation's id, so no other organisation reaches it. */
export const shardName = (orgId: string, shard: number) => `${orgId}/shard/${shard}`;

export type ShardStub = DurableObjectStub<FleetStore>;

/** Where a page's or a directory's systems go: this store's part, and each shard's. */
export interface Routed<T> {
  local: T[];
  remote: Map<number, T[]>;
}

/**
 * This store's place among its organisation's stores, and (in the organisation's own object) the
 * map of the systems its shards hold.
 */
export class Shards {
  private shardNumber: number | null = null;

  constructor(
    private readonly db: FleetDb,
    private readonly env: Env,
    /** Whether this store's size watch last found it past 70 % of its bound. */
    private readonly nearBound: () => boolean,
  ) {}

  /** 0 in the organisation's own object, else the shard's number (set by its first call). */
  self(): number {
    this.shardNumber ??= Number(readMeta(this.db, META_SHARD) ?? 0);
    return this.shardNumber;
  }

  /** Marks this object as shard `shard` of its organisation; an object never changes its number. */
  claim(shard: number): void {
    if (!Number.isInteger(shard) || shard < 1) throw new Error("A shard's number is a positive integer");
    const held = readMeta(this.db, META_SHARD);
    if (held === null) {
      if (countSystems(this.db) > 0) throw new Error("This fleet store is an organisation's own store");
      writeMeta(this.db, META_SHARD, String(shard));
      this.shardNumber = shard;
    } else if (Number(held) !== shard) throw new Error(`This fleet store is shard ${held}`);
  }

  /** The organisation's shards (none in a shard, or in a small organisation's object). */
  remote(): number[] {
    if (this.self() !== 0) return [];
    return shardNumbers(this.db);
  }

  /** Systems the organisation's shards hold (0 in a shard). */
  remoteSystemCount(): number {
    if (this.self() !== 0) return 0;
    return countShardSystems(this.db);
  }

  stub(orgId: string, shard: number): ShardStub {
    return this.env.FLEET_STORE.get(this.env.FLEET_STORE.idFromName(shardName(orgId, shard)));
  }

  /** In a shard: records systems as its own (its mirror keeps only those of D1's directory). */
  hold(systemIds: string[]): void {
    const shard = this.self();
    if (shard === 0 || systemIds.length === 0) return;
    listShardSystems(
      this.db,
      systemIds.map((id) => ({ id, shard })),
    );
  }

  /** In a shard: its own entries of a directory (D1's whole one, on a refresh). */
  own(entries: DirectoryEntry[]): DirectoryEntry[] {
    const held = shardSystemIds(this.db);
    return entries.filter((entry) => held.has(entry.systemId));
  }

  /** In the organisation's object: the shard of each listed system its shards hold (the others are held here). */
  shardsOf(systemIds: string[]): Map<string, number> {
    if (this.self() !== 0 || systemIds.length === 0) return new Map();
    return shardsOfSystems(this.db, systemIds);
  }

  /**
   * In the organisation's object: splits items by the store that holds their system, first giving
   * each system new to the organisation its store (this one while it is open, else the open
   * shard, else a new one). Runs without a turn between deciding and recording, so pages stored
   * side by side never give one system two stores.
   */
  route<T>(items: T[], systemOf: (item: T) => string): Routed<T> {
    const routed: Routed<T> = { local: [], remote: new Map() };
    if (this.self() !== 0) {
      routed.local = items;
      return routed;
    }
    const ids = [...new Set(items.map(systemOf))];
    this.assign(ids);
    const shards = this.shardsOf(ids);
    for (const item of items) {
      const shard = shards.get(systemOf(item));
      if (shard === undefined) routed.local.push(item);
      else {
        const list = routed.remote.get(shard) ?? [];
        list.push(item);
        routed.remote.set(shard, list);
      }
    }
    return routed;
  }

  /** Splits listed systems by the store that holds them, giving none a store. */
  routeKnown(systemIds: string[]): Routed<string> {
    const shards = this.shardsOf(systemIds);
    const routed: Routed<string> = { local: [], remote: new Map() };
    for (const id of systemIds) {
      const shard = shards.get(id);
      if (shard === undefined) routed.local.push(id);
      else routed.remote.set(shard, [...(routed.remote.get(shard) ?? []), id]);
    }
    return routed;
  }

  /** Forgets systems D1 no longer has (their shard drops them on its own refresh). */
  forgetAllBut(systemIds: string[]): void {
    if (this.self() !== 0) return;
    unlistSystemsBut(this.db, systemIds);
  }

  /** A shard's size as its last write answered it: a shard past 70 % of its bound takes no new system. */
  noteSize(shard: number, bytes: number): void {
    recordShardBytes(this.db, shard, bytes);
  }

  /** Gives each system the organisation has not seen its store, recording those a shard takes. */
  private assign(systemIds: string[]): void {
    const unknown = unseenSystems(this.db, systemIds);
    if (unknown.length === 0) return;
    const cap = shardSystems(this.env);
    const shards = this.remote();
    // This store stays open until a shard exists: then new systems go to the newest shard only.
    let room = shards.length === 0 && !this.nearBound() ? cap - countOwnSystems(this.db) : 0;
    let shard = shards.at(-1) ?? 0;
    let shardRoom = shard === 0 ? 0 : this.roomIn(shard, cap);
    // Recorded for this store too: a system given here counts against its room before it is written.
    const taken: { id: string; shard: number }[] = [];
    for (const id of unknown) {
      if (room > 0) {
        room--;
        taken.push({ id, shard: 0 });
        continue;
      }
      if (shardRoom <= 0) {
        shard++;
        shardRoom = cap;
        this.noteSize(shard, 0);
      }
      shardRoom--;
      taken.push({ id, shard });
    }
    listShardSystems(this.db, taken);
  }

  /** New systems shard `shard` may still take: none once past 70 % of its bound. */
  private roomIn(shard: number, cap: number): number {
    const row = shardFill(this.db, shard);
    if (!row) return cap;
    if (row.bytes >= storeBoundBytes(this.env) * FLEET_STORE_WARNING_SHARE) return 0;
    return cap - row.systems;
  }
}
