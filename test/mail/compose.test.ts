import { describe, expect, it } from "bun:test";
import { composeMail } from "../../src/mail/compose.ts";

// Issue 44 item 1: one layout for every message, as text and HTML with the same words; every
// string is plain text, escaped in the HTML, so a todo title or a name never adds markup.
describe("issue 44: composeMail", () => {
  const hostile = `<script>alert("x")</script> & <b onclick='y'>`;
  const mail = composeMail({
    heading: `Assigned: ${hostile}`,
    lines: ["First paragraph.", `Title: ${hostile}\nsecond line`],
    action: { label: `Open ${hostile}`, url: `https://cairn.example/w/t?a=1&b="2"` },
    footer: `Sent to ${hostile}`,
  });

  it("writes the same words as plain text, paragraphs apart, the link spelled out", () => {
    expect(mail.text).toBe(
      [
        `Assigned: ${hostile}`,
        "First paragraph.",
        `Title: ${hostile}\nsecond line`,
        `Open ${hostile}: https://cairn.example/w/t?a=1&b="2"`,
        `-- \nSent to ${hostile}`,
      ].join("\n\n"),
    );
  });

  it("escapes every string in the HTML, attributes included", () => {
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b onclick");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b onclick=&#x27;y&#x27;&gt;");
    expect(mail.html).toContain(`href="https://cairn.example/w/t?a=1&amp;b=&quot;2&quot;"`);
    expect(mail.html).toContain("second line");
    expect(mail.html).toMatch(/Title: .*<br>second line/);
  });

  it("leaves out the button and footer when there are none", () => {
    const plain = composeMail({ heading: "Hello", lines: ["One."] });
    expect(plain.text).toBe("Hello\n\nOne.");
    expect(plain.html).not.toContain("<a ");
  });

  it("refuses a link that is not http(s)", () => {
    expect(() => composeMail({ heading: "h", lines: [], action: { label: "x", url: "javascript:alert(1)" } })).toThrow("must be http(s)");
  });
});
