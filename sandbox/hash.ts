/** FNV-1a: a stable, well-spread hash for deterministic simulation (not for security). */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A stable number in [0, 1] for a text. */
export const unit = (text: string) => hash(text) / 0xffffffff;
