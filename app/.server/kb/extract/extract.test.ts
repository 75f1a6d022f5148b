import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { bytes, CSV, HTML_DOC, JSON_DOC, MD_DOC, minimalDocx, minimalPdf, TXT_DOC } from "../fixtures/files";
import { ExtractError, extractFile, extractHtml, fileKind } from "./index";

describe("extraction, one format at a time", () => {
  it("PDF: unpdf reads the text of a hand-written one-page PDF", async () => {
    const doc = await extractFile(minimalPdf(["Refunds are paid within 14 days.", "Contact billing."]), "policy.pdf", "pdf");
    expect(doc.text).toContain("Refunds are paid within 14 days.");
    expect(doc.text).toContain("Contact billing.");
    expect(doc.title).toBe("policy");
  });

  it("PDF without text, and bytes that are not a PDF, fail in plain words", async () => {
    await expect(extractFile(minimalPdf([]), "scan.pdf", "pdf")).rejects.toThrow("This PDF has no extractable text (scanned images?)");
    await expect(extractFile(bytes("hello"), "fake.pdf", "pdf")).rejects.toThrow("The file is not a valid PDF.");
    await expect(extractFile(bytes("%PDF-1.4 garbage"), "broken.pdf", "pdf")).rejects.toBeInstanceOf(ExtractError);
  });

  it("DOCX: paragraphs, Heading styles as #, list items, entities and split runs", async () => {
    const doc = await extractFile(minimalDocx(), "shipping.docx", "docx");
    expect(doc.title).toBe("Shipping guide");
    expect(doc.text).toContain("# Shipping guide");
    expect(doc.text).toContain("## Costs");
    expect(doc.text).toContain("We ship to 30 countries & regions.");
    expect(doc.text).toContain("- Standard delivery\n- Express delivery");
    expect(doc.text).toContain("Split runs join.");
  });

  it("DOCX that is not a Word archive fails in plain words", async () => {
    await expect(extractFile(bytes("not a zip"), "x.docx", "docx")).rejects.toThrow("The file is not a valid DOCX");
    const zipWithoutDoc = zipSync({ "hello.txt": strToU8("hi") });
    await expect(extractFile(zipWithoutDoc, "x.docx", "docx")).rejects.toThrow("The file is not a valid DOCX (word/document.xml is missing).");
  });

  it("HTML: headings as #, lists, tables; script, nav and footer dropped; title from <title>", async () => {
    const doc = await extractFile(bytes(HTML_DOC), "returns.html", "html");
    expect(doc.title).toBe("Returns policy");
    expect(doc.text).toContain("# Returns");
    expect(doc.text).toContain("Return items within 30 days.");
    expect(doc.text).toContain("### Exceptions");
    expect(doc.text).toContain("- Gift cards\n- Sale items");
    expect(doc.text).toContain("Shoes | 60 days");
    for (const junk of ["SCRIPT_TEXT", "NAV_TEXT", "FOOTER_TEXT"]) expect(doc.text).not.toContain(junk);
    expect(extractHtml("<body><h1>Only heading</h1><p>x</p></body>").title).toBe("Only heading");
  });

  it("CSV: one block of `column: value` lines per row, quoted commas kept, empty cells left out", async () => {
    const doc = await extractFile(bytes(CSV), "plans.csv", "csv");
    expect(doc.text).toBe("name: Basic plan\nprice: 10\nnotes: Good for starters\n\nname: Pro plan\nprice: 25\nnotes: Includes support, and more");
    await expect(extractFile(bytes("just,a,header\n"), "e.csv", "csv")).rejects.toThrow("The CSV file has no rows");
  });

  it("JSON: flattened key paths", async () => {
    const doc = await extractFile(bytes(JSON_DOC), "facts.json", "json");
    expect(doc.title).toBe("Store facts");
    expect(doc.text).toContain("store.hours.weekdays: 9-17");
    expect(doc.text).toContain("store.phones[1]: +1 555 0101");
    expect(doc.text).toContain("open: true");
    await expect(extractFile(bytes("{oops"), "bad.json", "json")).rejects.toThrow("The file is not valid JSON.");
  });

  it("Markdown and plain text", async () => {
    const md = await extractFile(bytes(MD_DOC), "warranty.md", "md");
    expect(md).toMatchObject({ title: "Warranty", format: "markdown" });
    expect(md.text).toContain("## Claims");
    const txt = await extractFile(bytes(TXT_DOC), "opening_hours.txt", "txt");
    expect(txt).toEqual({ title: "opening hours", text: "Opening hours: 9 to 5 on weekdays.\n\nClosed on public holidays.", format: "text" });
    await expect(extractFile(bytes("   "), "empty.txt", "txt")).rejects.toThrow("The file is empty.");
  });

  it("file kinds by extension, then MIME type; anything else is refused", () => {
    expect(fileKind("A.PDF")).toBe("pdf");
    expect(fileKind("notes.markdown")).toBe("md");
    expect(fileKind("page.htm")).toBe("html");
    expect(fileKind("upload", "application/json")).toBe("json");
    expect(fileKind("virus.exe", "application/octet-stream")).toBeNull();
  });
});
