import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./helpers";

describe("the served OpenAPI document", () => {
  it("validates against the OpenAPI 3.1 schema, and every $ref resolves", async () => {
    const res = await fetch(`${baseUrl}/api/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as Record<string, unknown>;
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // Dereferencing walks every $ref (components and JSON Schema refs alike) and throws on a dangling one.
    const resolved = JSON.stringify(validator.resolveRefs());
    expect(resolved).not.toContain('"$ref"');
  });
});
