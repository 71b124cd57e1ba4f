import { describe, expect, it } from "bun:test";
import fc from "fast-check";
import { normalizePatch, parseTeamIds } from "../../src/settings/init/app-config.ts";
import { AppError } from "../../src/shared/errors.ts";

const teamId = fc.stringMatching(/^[A-Za-z0-9._:-]{1,20}$/);
const separator = fc.constantFrom(",", ";", " ", ", ", " ; ", "\t", "\n", ",,");

describe("owner_team_id parsing", () => {
  it("recovers the ids, in order and without repeats, whatever separators join them", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(teamId, separator), { maxLength: 8 }), separator, separator, (parts, lead, tail) => {
        const text = lead + parts.map(([id, sep]) => id + sep).join("") + tail;
        expect(parseTeamIds(text)).toEqual([...new Set(parts.map(([id]) => id))]);
      }),
    );
  });

  it("accepts every list of valid ids and returns it trimmed", () => {
    fc.assert(
      fc.property(fc.array(teamId, { minLength: 1, maxLength: 5 }), separator, (ids, sep) => {
        expect(normalizePatch({ owner_team_id: ` ${ids.join(sep)} ` }, null).owner_team_id).toBe(ids.join(sep).trim());
      }),
    );
  });

  it("refuses any id with a character outside the id alphabet", () => {
    fc.assert(
      fc.property(teamId, fc.constantFrom("<", ">", '"', "'", "/", "?", "#", "&", "é"), (id, bad) => {
        expect(() => normalizePatch({ owner_team_id: `${id}${bad}` }, null)).toThrow(AppError);
      }),
    );
  });
});

describe("app config URLs", () => {
  it("accept every http(s) URL and refuse every other scheme", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: false, withFragments: false }), fc.constantFrom("ftp", "javascript", "data", "file"), (url, scheme) => {
        const ok = normalizePatch({ idp_base_url: url }, null).idp_base_url as string;
        expect(ok.startsWith("http")).toBe(true);
        expect(ok.endsWith("/")).toBe(false);
        expect(() => normalizePatch({ idp_base_url: url.replace(/^https?/, scheme) }, null)).toThrow(AppError);
      }),
    );
  });
});
