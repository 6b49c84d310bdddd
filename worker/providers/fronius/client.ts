import type { z } from "zod";
import { ProviderError } from "../errors";
import type { ProviderCallContext } from "../types";
import { parseVendorAnswer } from "../vendor-parse";
import { type FroniusPvSystem, pvSystemsResponseSchema } from "./schemas";

export interface FroniusCredentials {
  accessKeyId: string;
  accessKeyValue: string;
}

/** The page size asked of /pvsystems; the vendor's own example pages by 100. */
const PAGE_LIMIT = 100;
/** A guard against a vendor that keeps answering "next": 1,000 pages of 100 systems. */
const MAX_PAGES = 1000;

/** Solar.web Query API calls: every request carries the access key pair as headers. */
export class FroniusClient {
  constructor(
    private readonly ctx: ProviderCallContext,
    private readonly credentials: FroniusCredentials,
  ) {}

  async get<T>(
    path: string,
    query: Record<string, string | number>,
    schema: z.ZodType<T>,
    what: string,
  ): Promise<T> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) search.set(key, String(value));
    const queryString = search.toString();
    const url = `${this.ctx.urls.fronius}${path}${queryString ? `?${queryString}` : ""}`;
    try {
      const body = await this.ctx.http.json({
        url,
        headers: {
          AccessKeyId: this.credentials.accessKeyId,
          AccessKeyValue: this.credentials.accessKeyValue,
          Accept: "application/json",
        },
      });
      return parseVendorAnswer(schema, body, "Solar.web", what);
    } catch (error) {
      // HTTP 401 carries {"responseError":1102,...}; say which keys to check rather than the status.
      if (error instanceof ProviderError && error.kind === "auth") {
        throw new ProviderError(
          "auth",
          "Solar.web rejected the access key: check the AccessKeyId and AccessKeyValue",
        );
      }
      throw error;
    }
  }

  /**
   * One /pvsystems page from `offset`, and the offset of the next page (null after the last). A
   * vendor that keeps answering "next" is stopped after MAX_PAGES pages.
   */
  async pvSystemsPage(
    offset: number,
  ): Promise<{ systems: FroniusPvSystem[]; nextOffset: number | null; totalPages: number | null }> {
    const answer = await this.get(
      "/pvsystems",
      { offset, limit: PAGE_LIMIT },
      pvSystemsResponseSchema,
      "the PV system list",
    );
    const next = offset + answer.pvSystems.length;
    const total = answer.links.totalItemsCount;
    const more = answer.links.next !== null || (total !== null && next < total);
    const last = answer.pvSystems.length === 0 || !more || next >= MAX_PAGES * PAGE_LIMIT;
    return {
      systems: answer.pvSystems,
      nextOffset: last ? null : next,
      totalPages: total === null ? null : Math.max(1, Math.ceil(total / PAGE_LIMIT)),
    };
  }
}
