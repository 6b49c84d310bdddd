import { type OrgVersions, readFullDirectory, readVersions } from "../data/fleet-directory";
import type { Env } from "../env";
import { createDb } from "../lib/db";
import { applyDirectory, readMeta, replaceDirectory, writeMeta } from "./data/directory";
import type { FleetDb } from "./db";
import type { DirectoryEntry, FleetPage } from "./types";

const META_DIRECTORY_VERSION = "directory_version";
/** D1's counter for the organisation when the mirror last had to read D1 again (see D1Versions.edited). */
const META_EDITED_VERSION = "edited_version";

/**
 * D1's counters for the organisation, as a read model is built against them, and `edited`: the
 * organisation's counter as of its last move that no sync page carried (a member's change, a
 * tool's), which the site lists show at once whatever the fleet's size.
 */
export type D1Versions = OrgVersions & { edited: number };

/**
 * The store's mirror of D1's metadata for the organisation's systems (names, sites, places,
 * capacities), which the read models join with the readings held here. D1's counter for the
 * organisation says when the mirror is behind; it is then read again whole.
 */
export class DirectoryMirror {
  private refreshing: Promise<void> | null = null;
  /**
   * The newest of D1's counters seen here. They only grow, and a caller's were read when its
   * request was authenticated: one that started earlier may bring older ones than another's.
   */
  private newest: OrgVersions = { org: 0, irradiance: 0, lists: 0, alerts: 0 };

  constructor(
    private readonly db: FleetDb,
    private readonly storage: DurableObjectStorage,
    private readonly env: Env,
    /** Called after the mirror was read again: read models rebuild, systems may have come or gone. */
    private readonly onRefreshed: () => Promise<void>,
    /**
     * The entries of D1's whole directory this store keeps (the others are its shards' or, in a
     * shard, other stores'; see ./shards.ts).
     */
    private readonly keep: (entries: DirectoryEntry[]) => Promise<DirectoryEntry[]>,
  ) {}

  /**
   * A page's own directory entries, in the caller's transaction. The page carries its own D1
   * changes: the mirror stays current if nothing else moved D1 meanwhile.
   */
  applyPage(page: Pick<FleetPage, "directory" | "versions">): void {
    applyDirectory(this.db, page.directory);
    if (page.versions && this.version() === page.versions.before) {
      writeMeta(this.db, META_DIRECTORY_VERSION, String(page.versions.after));
    }
  }

  /**
   * Re-reads D1's metadata when D1's counter moved past what the store mirrors; answers the
   * counters. `seen`: the caller's, read with its session (D1 is not asked again).
   */
  async current(orgId: string, seen?: OrgVersions): Promise<D1Versions> {
    const versions = await this.versions(orgId, seen);
    if (this.behind(versions.org)) {
      this.refreshing ??= this.refresh(orgId).finally(() => {
        this.refreshing = null;
      });
      await this.refreshing;
    }
    return { ...versions, edited: this.editedVersion() };
  }

  private editedVersion(): number {
    return Number(readMeta(this.db, META_EDITED_VERSION) ?? 0);
  }

  /**
   * A read from the mirror with D1's counter checked side by side rather than first (one D1 round
   * trip fewer for a read that goes to D1 itself): when the counter moved, the mirror is refreshed
   * and the read made again. The read is handed D1's counters as they come, for what it holds
   * against them.
   */
  async readWith<T>(
    orgId: string,
    read: (versions: Promise<D1Versions>) => Promise<T>,
    seen?: OrgVersions,
  ): Promise<T> {
    const mirrored = this.version();
    const versionsRead = this.versions(orgId, seen).then((versions) => ({
      ...versions,
      edited: this.editedVersion(),
    }));
    const [versions, answer] = await Promise.all([versionsRead, read(versionsRead)]);
    if (!this.behind(versions.org, mirrored) && !this.refreshing) return answer;
    // Read again once the mirror is current, not beside its refresh.
    const current = await this.current(orgId, seen);
    return read(Promise.resolve(current));
  }

  /** D1's counters: the caller's or read now, each no older than the newest seen here. */
  private async versions(orgId: string, seen?: OrgVersions): Promise<OrgVersions> {
    const read = seen ?? (await readVersions(createDb(this.env.DB), orgId));
    const newest = this.newest;
    this.newest = {
      org: Math.max(newest.org, read.org),
      irradiance: Math.max(newest.irradiance, read.irradiance),
      lists: Math.max(newest.lists, read.lists),
      alerts: Math.max(newest.alerts, read.alerts),
    };
    return this.newest;
  }

  /** Whether D1's counter `org` is past what the mirror holds (a page may have taken it further). */
  private behind(org: number, mirrored = this.version()): boolean {
    return mirrored === null || org > mirrored;
  }

  private version(): number | null {
    const value = readMeta(this.db, META_DIRECTORY_VERSION);
    return value === null ? null : Number(value);
  }

  private async refresh(orgId: string): Promise<void> {
    const { version, directory: whole } = await readFullDirectory(createDb(this.env.DB), orgId);
    const directory = await this.keep(whole);
    const mirrored = this.version();
    // A page stored while D1 was being read may already reflect a newer state than this read.
    if (mirrored !== null && mirrored > version) return;
    this.storage.transactionSync(() => {
      replaceDirectory(this.db, directory);
      writeMeta(this.db, META_DIRECTORY_VERSION, String(version));
      writeMeta(this.db, META_EDITED_VERSION, String(version));
    });
    await this.onRefreshed();
  }
}
