import { describe, expect, it } from "bun:test";
import { deflateSync } from "node:zlib";
import fc from "fast-check";
import { decodeDiagram, encodeDiagram, MAX_DIAGRAM_SOURCE_BYTES } from "../../src/docs/render/diagram-key.ts";

/* Diagram keys in Kroki's GET encoding (src/docs/render/diagram-key.ts): compatible, round-tripping, and bounded. */

describe("diagram keys (Kroki's GET encoding)", () => {
  it("match Python's base64.urlsafe_b64encode(zlib.compress(source, 9)), without padding", () => {
    expect(encodeDiagram("Bob -> Alice : hello")).toBe("eNpzyk9S0LVTcMzJTE5VsFLISM3JyQcAPHcGKw");
    expect(decodeDiagram("eNpzyk9S0LVTcMzJTE5VsFLISM3JyQcAPHcGKw==")).toBe("Bob -> Alice : hello");
    expect(decodeDiagram("eNpLL0osyFAIceFSUHCMdjm8Mqm0JFZBV9dOwan68Jy8w-uT81NSFR7NmVwLAC8dECY=")).toBe("graph TD\n  A[Début] --> B{Ünïcode ✓}");
  });

  it("round-trip any source", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 2000 }), (source) => {
        const key = encodeDiagram(source);
        expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
        // Lone surrogates are not UTF-8: they come back as U+FFFD, as any UTF-8 transport would make them.
        expect(decodeDiagram(key)).toBe(Buffer.from(source, "utf8").toString("utf8"));
      }),
    );
  });

  it("decode garbage to null", () => {
    const notZlib = Buffer.from("plain text, not deflated").toString("base64url");
    const notUtf8 = deflateSync(Buffer.from([0xff, 0xfe, 0xc3])).toString("base64url");
    for (const key of ["", "!!!!", "eNpz yk9S", "eNpzyk9S0LVTcMzJTE5VsFLISM3JyQcAPHc", notZlib, notUtf8, "a/b+c", "="]) {
      expect(decodeDiagram(key)).toBeNull();
    }
    fc.assert(fc.property(fc.string(), (key) => decodeDiagram(key) === null || encodeDiagram(decodeDiagram(key)!).length > 0));
  });

  it("refuse a key that inflates beyond 64 KiB", () => {
    expect(decodeDiagram(encodeDiagram("a".repeat(MAX_DIAGRAM_SOURCE_BYTES)))).toHaveLength(MAX_DIAGRAM_SOURCE_BYTES);
    expect(decodeDiagram(encodeDiagram("a".repeat(MAX_DIAGRAM_SOURCE_BYTES + 1)))).toBeNull();
    expect(decodeDiagram(deflateSync(Buffer.alloc(50 * 1024 * 1024)).toString("base64url"))).toBeNull();
  });
});
