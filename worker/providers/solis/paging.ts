/** The documented maximum page size. */
export const SOLIS_PAGE_SIZE = 100;
/**
 * 200,000 records: ten times the inverters of the largest organisation Sunfleet sizes for (20,000
 * plants, ~50,000 inverters); stops a vendor that keeps claiming more pages.
 */
export const SOLIS_MAX_PAGES = 2_000;
