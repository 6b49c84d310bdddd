import { describe, expect, it } from "vitest";
import {
  solisAuthorization,
  solisContentMd5,
  solisSignedHeaders,
} from "../../../worker/providers/solis/signature";

// Known-answer vectors from the vendor documentation; vector A is the vendor's own worked example (API doc V1.2 §2.2).
const vectorA = {
  keyId: "2424",
  keySecret: "6680182547",
  body: '{"pageNo":1,"pageSize":10}',
  date: "Fri, 26 Jul 2019 06:00:46 GMT",
  path: "/v1/api/userStationList",
  contentType: "application/json",
};

describe("SolisCloud request signature", () => {
  it("matches the vendor's worked example (vector A)", async () => {
    expect(solisContentMd5(vectorA.body)).toBe("kxdxk7rbAsrzSIWgEwhH4w==");
    expect(await solisAuthorization(vectorA)).toBe("API 2424:nBYQWeuzy3Y+gp67BN8zXTmvSDk=");
  });

  it("signs the Content-Type exactly as sent (vector B)", async () => {
    const authorization = await solisAuthorization({
      ...vectorA,
      contentType: "application/json;charset=UTF-8",
    });
    expect(authorization).toBe("API 2424:b7lDe0IYMGj/Dp2su0plYT+BbJQ=");
  });

  it("signs a 19-digit key id and another path (vector C)", async () => {
    const vectorC = {
      keyId: "1300386381676644416",
      keySecret: "0123456789abcdef0123456789abcdef",
      body: '{"id":"1308675217944611083","sn":"120B40198150131"}',
      date: "Tue, 27 Jun 2023 06:27:04 GMT",
      path: "/v1/api/inverterDetail",
      contentType: "application/json;charset=UTF-8",
    };
    expect(solisContentMd5(vectorC.body)).toBe("/6QmVEd3fJD2QrcTrU4llQ==");
    expect(await solisAuthorization(vectorC)).toBe("API 1300386381676644416:LutJefUiZDpMgO9yzpOc9cQPhpE=");
  });

  it("builds every header with application/json as the default type", async () => {
    const { contentType: _, ...withoutType } = vectorA;
    expect(await solisSignedHeaders(withoutType)).toEqual({
      "Content-MD5": "kxdxk7rbAsrzSIWgEwhH4w==",
      "Content-Type": "application/json",
      Date: "Fri, 26 Jul 2019 06:00:46 GMT",
      Authorization: "API 2424:nBYQWeuzy3Y+gp67BN8zXTmvSDk=",
    });
  });

  it("hashes the body's UTF-8 bytes, so a changed byte changes the signature", async () => {
    const changed = await solisAuthorization({ ...vectorA, body: '{"pageNo":1,"pageSize":11}' });
    expect(changed).not.toBe("API 2424:nBYQWeuzy3Y+gp67BN8zXTmvSDk=");
    expect(solisContentMd5('{"name":"Zürich"}')).not.toBe(solisContentMd5('{"name":"Zurich"}'));
  });
});
