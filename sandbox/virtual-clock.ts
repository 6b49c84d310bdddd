/**
 * A virtual clock for runs that would otherwise wait on vendors' rate limits in real time (the
 * sync benchmark, adapter tests). Sleepers wake in the order of their wake-up times, one at a
 * time, and the clock moves to each one's time only while no vendor call is on its way, so an
 * emulator stamps every call with the time it was really sent at: concurrent callers see the
 * same timeline they would see on the real clock, only without the waiting.
 */
export class VirtualClock {
  private at: number;
  private sequence = 0;
  private inflight = 0;
  private scheduled = false;
  private readonly sleepers: { at: number; sequence: number; resolve: () => void }[] = [];

  constructor(start: number) {
    this.at = start;
  }

  readonly now = (): number => this.at;

  readonly sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      this.sleepers.push({ at: this.at + Math.max(0, ms), sequence: this.sequence++, resolve });
      this.schedule();
    });

  /** Moves the clock on by `ms` at once (between benchmark rounds). */
  advance(ms: number): void {
    this.at += ms;
  }

  /** A fetch whose calls hold the clock still until they are answered. */
  track(fetch: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
    return async (request) => {
      this.inflight++;
      try {
        return await fetch(request);
      } finally {
        this.inflight--;
        this.schedule();
      }
    };
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // A macrotask later: whatever the last waking caller does synchronously (send its call) comes first.
    setTimeout(() => this.wake(), 0);
  }

  private wake(): void {
    this.scheduled = false;
    if (this.inflight > 0 || this.sleepers.length === 0) return;
    this.sleepers.sort((a, b) => a.at - b.at || a.sequence - b.sequence);
    const next = this.sleepers.shift();
    if (!next) return;
    this.at = Math.max(this.at, next.at);
    next.resolve();
    this.schedule();
  }
}
