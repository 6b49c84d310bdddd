import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ProviderError } from "../../../worker/providers/errors";
import {
  optionalVendorId,
  optionalVendorNumber,
  parseVendorAnswer,
  parseVendorRecords,
  vendorId,
  vendorNumber,
} from "../../../worker/providers/vendor-parse";

const record = z.object({ value: optionalVendorNumber });
const optionalField = (value: unknown) => record.safeParse({ value });

describe("vendor numbers, one rule for every adapter", () => {
  it.each([
    [3215, 3215],
    [-1064.6, -1064.6],
    ["3215.0", 3215],
    [" 12.60 ", 12.6],
    ["-1.5e3", -1500],
    ["1719829230000", 1_719_829_230_000],
  ])("reads %j as %d", (sent, read) => {
    expect(vendorNumber.parse(sent)).toBe(read);
    expect(optionalField(sent).data).toEqual({ value: read });
  });

  it("reads an absent value, null and an empty string as no value where the vendor may leave it out", () => {
    for (const sent of [undefined, null, "", "  "]) expect(optionalField(sent).data).toEqual({ value: null });
    expect(record.parse({})).toEqual({ value: null });
  });

  it("refuses a number the vendor must send when it is missing or empty", () => {
    for (const sent of [undefined, null, ""]) expect(vendorNumber.safeParse(sent).success).toBe(false);
    expect(vendorNumber.nullable().parse(null)).toBeNull();
  });

  it.each([
    ["--"],
    ["n/a"],
    ["0x10"],
    ["+5"],
    [".5"],
    ["Infinity"],
    ["NaN"],
    ["1e400"],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    // Past 2^53 JSON has already rounded a whole number: it is not what the vendor sent.
    [2 ** 53],
    [1e20],
    ["12345678901234567890"],
    [true],
    [{ value: 1 }],
    [[1]],
  ])("refuses %j everywhere", (sent) => {
    expect(vendorNumber.safeParse(sent).success).toBe(false);
    expect(optionalField(sent).success).toBe(false);
  });

  it("names what it refused", () => {
    expect(optionalField("n/a").error?.issues[0]?.message).toBe('expected a number, got "n/a"');
    expect(optionalField({}).error?.issues[0]?.message).toBe("expected a number, got an object");
  });
});

describe("vendor ids", () => {
  it("keeps ids as text, trimmed, and a whole number only when it arrived exactly", () => {
    expect(vendorId.parse(" 1298491919448631809 ")).toBe("1298491919448631809");
    expect(vendorId.parse(7190000)).toBe("7190000");
    expect(vendorId.safeParse(Number("1298491919448631809")).success).toBe(false);
    expect(vendorId.safeParse(1.5).success).toBe(false);
    expect(vendorId.safeParse("").success).toBe(false);
    expect(vendorId.safeParse(null).success).toBe(false);
  });

  it("reads a missing or empty optional id as none", () => {
    const row = z.object({ code: optionalVendorId });
    expect(row.parse({})).toEqual({ code: null });
    expect(row.parse({ code: "" })).toEqual({ code: null });
    expect(row.parse({ code: 102 })).toEqual({ code: "102" });
  });
});

describe("parsing a vendor answer", () => {
  const plantList = z.object({ plants: z.array(z.object({ plantId: vendorId, name: z.string() })) });

  it("answers the parsed value", () => {
    expect(
      parseVendorAnswer(plantList, { plants: [{ plantId: 7, name: "Site" }] }, "SMA", "the plant list"),
    ).toEqual({ plants: [{ plantId: "7", name: "Site" }] });
  });

  it("throws a malformed ProviderError naming the vendor, the answer and the field", () => {
    const answer = { plants: [{ plantId: "7" }] };
    const error = (() => {
      try {
        parseVendorAnswer(plantList, answer, "SMA", "the plant list");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("malformed");
    expect((error as ProviderError).message).toMatch(
      /^SMA answered the plant list in an unexpected shape at plants\.0\.name: /,
    );
  });

  it("quotes no credential-like value the vendor put where a number belongs", () => {
    const token = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9";
    const schema = z.object({ power: vendorNumber });
    expect(() => parseVendorAnswer(schema, { power: token }, "SolaX", "the realtime data")).toThrow(
      /at power: expected a number, got "\[redacted\]"/,
    );
  });
});

describe("reading a list's records", () => {
  it("names the record at fault, and gives the event loop turns while it reads a long list", async () => {
    let read = 0;
    const counted = z.object({ id: vendorId }).transform((value) => {
      read++;
      return value;
    });
    const records = Array.from({ length: 100 }, (_, i) => ({ id: i + 1 }));
    // A timer queued before the read runs while it goes on, as a request to the app would.
    const readWhenTimerRan = new Promise<number>((resolve) => setTimeout(() => resolve(read), 0));
    const parsed = await parseVendorRecords(counted, records, "SolisCloud", "inverterDetailList");
    expect(parsed.map((r) => r.id)).toEqual(records.map((r) => String(r.id)));
    const atTimer = await readWhenTimerRan;
    expect(atTimer).toBeGreaterThan(0);
    expect(atTimer).toBeLessThan(100);
    await expect(
      parseVendorRecords(counted, [...records.slice(0, 56), { id: "" }], "SolisCloud", "inverterDetailList"),
    ).rejects.toThrow(/^SolisCloud answered inverterDetailList record 57 in an unexpected shape at id: /);
  });
});
