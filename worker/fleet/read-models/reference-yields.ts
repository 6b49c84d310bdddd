import type { IrradianceWindow } from "../../data/irradiance";
import type { Db } from "../../lib/db";
import { type IrradiationByDay, irradiationKey, readIrradiation } from "./system-metrics";

/** Windows held at most (a 20,000-system fleet spread over as many places: one a place and day). */
const MAX_WINDOWS = 50_000;

/**
 * Each place's reference yield per window, kept while D1's irradiance counter stands: the weather
 * service's hours change hourly at most, while a large fleet's dashboard model is rebuilt after
 * every sync page, and reading and modelling today's hours of 22,000 places took 2.5 s of each
 * build (0.8 s of D1, 1.7 s of the model). A system's analytics asks for its place's days, which
 * its neighbours' and its next range's calls ask for again. Exact: the counter moves with any
 * write to the hours.
 */
export class ReferenceYields {
  private version: number | null = null;
  /** Yield (Wh per kW) by `${key}|${start}|${end}`, read at `version`. */
  private readonly byWindow = new Map<string, number>();

  constructor(private readonly read: typeof readIrradiation = readIrradiation) {}

  /** The windows' yields keyed `${key}|${start}`, as readIrradiation answers them; D1 asked only for windows not held. */
  async yields(d1: Db, windows: IrradianceWindow[], irradianceVersion: number): Promise<IrradiationByDay> {
    // A read made against an older counter than the one held (a slow build) is answered, not kept.
    if (this.version !== null && irradianceVersion < this.version) return this.read(d1, windows);
    if (irradianceVersion !== this.version) {
      this.byWindow.clear();
      this.version = irradianceVersion;
    }
    const yields: IrradiationByDay = new Map();
    const missing: IrradianceWindow[] = [];
    for (const window of windows) {
      const held = this.byWindow.get(heldKey(window));
      if (held === undefined) missing.push(window);
      else if (!Number.isNaN(held)) yields.set(irradiationKey(window.key, window.start), held);
    }
    if (missing.length === 0) return yields;
    const read = await this.read(d1, missing);
    for (const [key, value] of this.keep(missing, irradianceVersion, read)) yields.set(key, value);
    return yields;
  }

  /**
   * The same for a read whose irradiance counter comes from D1 beside it (a system's analytics):
   * windows all held are answered once the counter confirms them, without D1; otherwise D1 is
   * read at once, beside the counter, rather than after it.
   */
  async yieldsBeside(
    d1: Db,
    windows: IrradianceWindow[],
    irradianceVersion: Promise<number>,
  ): Promise<IrradiationByDay> {
    const held = this.version;
    if (held !== null && windows.every((window) => this.byWindow.has(heldKey(window)))) {
      const version = await irradianceVersion;
      if (version === held && this.version === held) return this.yields(d1, windows, version);
    }
    const [version, read] = await Promise.all([irradianceVersion, this.read(d1, windows)]);
    if (this.version === null || version > this.version) {
      this.byWindow.clear();
      this.version = version;
    }
    return this.keep(windows, version, read);
  }

  /** Holds what D1 answered for the windows when it was read at the counter held; answers it. */
  private keep(
    windows: IrradianceWindow[],
    irradianceVersion: number,
    read: IrradiationByDay,
  ): IrradiationByDay {
    // Another build may have moved the counter while D1 answered: then these are not kept.
    const keep = this.version === irradianceVersion;
    if (keep && this.byWindow.size + windows.length > MAX_WINDOWS) this.byWindow.clear();
    const yields: IrradiationByDay = new Map();
    for (const window of windows) {
      const key = irradiationKey(window.key, window.start);
      const value = read.get(key);
      if (value !== undefined) yields.set(key, value);
      // A window without stored hours has no yield (readIrradiation leaves it out): held as NaN.
      if (keep) this.byWindow.set(heldKey(window), value ?? Number.NaN);
    }
    return yields;
  }
}

const heldKey = (window: IrradianceWindow) => `${irradiationKey(window.key, window.start)}|${window.end}`;
