import { describe, expect, it } from "vitest";
import { parseListParams, toListInput, toSearch } from "./list-params";

describe("list params", () => {
  it("round-trips through the URL", () => {
    const params = parseListParams(new URLSearchParams("status=running,paused&agent=demo&q=docs&sort=cost&dir=asc"));
    expect(params).toEqual({
      status: ["running", "paused"],
      agentKind: ["demo"],
      text: "docs",
      sort: "cost",
      direction: "asc",
      cursor: null,
    });
    expect(parseListParams(new URLSearchParams(toSearch(params).slice(1)))).toEqual(params);
  });

  it("drops unknown values instead of failing", () => {
    expect(parseListParams({ status: "running,bogus", sort: "weird", dir: "sideways" })).toMatchObject({
      status: ["running"],
      sort: "updated",
      direction: "desc",
    });
    expect(toSearch(parseListParams({}))).toBe("");
  });

  it("builds the same API input on server and client", () => {
    expect(toListInput(parseListParams({ q: "  x ", cursor: "abc" }))).toEqual({
      text: "x",
      sort: "updated",
      direction: "desc",
      limit: 25,
      cursor: "abc",
    });
  });
});
