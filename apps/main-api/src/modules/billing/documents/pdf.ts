import { text } from '@platform/templates';
import PDFDocument from 'pdfkit';
import type { BillingDocument, DocumentFact } from './document.js';
import { formatAmount } from './format.js';
import { headerFactsOf, headingOf, kraPinLine, vatLabel } from './labels.js';

// A billing document as an A4 PDF (pdfkit): the same content as the page, tagged (headings and paragraphs in a
// structure tree, the rules marked as artifacts) with its language and title, so a screen reader can read it.

const MARGIN = 56;
const AMOUNT_WIDTH = 150;
const GAP = 16;
const TEXT = '#1a1a1a';
const MUTED = '#4a4a4a';

/** The document as PDF bytes. Its creation date is the document's issue date, so one document gives one file. */
export async function renderDocumentPdf(document: BillingDocument): Promise<Buffer> {
  const heading = headingOf(document);
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    pdfVersion: '1.7',
    tagged: true,
    lang: 'en-KE',
    displayTitle: true,
    info: {
      Title: winAnsi(
        text('en', 'billingDocument.pageTitle', {
          title: document.title,
          number: document.number,
          seller: document.seller.name,
        }),
      ),
      Author: winAnsi(document.seller.name),
      CreationDate: document.issuedAt,
      ModDate: document.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  draw(new Writer(pdf), document, heading);
  pdf.end();
  await ended;
  return Buffer.concat(chunks);
}

function draw(out: Writer, document: BillingDocument, heading: string): void {
  const { seller, buyer, amounts } = document;
  out.heading('H1', heading, 20);
  out.facts(headerFactsOf(document));
  out.heading('H2', text('en', 'billingDocument.from'));
  out.paragraph(seller.name);
  out.paragraph(seller.address);
  out.paragraph(kraPinLine(seller.kraPin));
  out.heading('H2', text('en', 'billingDocument.billedTo'));
  out.paragraph(buyer.name);
  out.paragraph(kraPinLine(buyer.kraPin));

  out.heading('H2', document.linesCaption);
  out.row(text('en', 'billingDocument.description'), text('en', 'billingDocument.amount'), { bold: true });
  out.rule();
  for (const line of document.lines) {
    out.row(line.description, formatAmount(line.amount));
    for (const detail of line.details) out.paragraph(detail, { color: MUTED, width: out.descriptionWidth });
    out.rule();
  }
  out.row(text('en', 'billingDocument.net'), formatAmount(amounts.net));
  out.row(vatLabel(amounts.ratePercent), formatAmount(amounts.vat));
  out.row(text('en', 'billingDocument.total'), formatAmount(amounts.total), { bold: true });
  out.rule();

  out.heading('H2', document.facts.heading);
  out.facts(document.facts.items);
  out.space();
  for (const note of document.notes) out.paragraph(note, { color: MUTED, size: 9 });
  out.end();
}

/** Writes tagged text down the page, one block under the other. */
class Writer {
  private readonly root: PDFKit.PDFStructureElement;
  readonly descriptionWidth: number;

  constructor(private readonly pdf: PDFKit.PDFDocument) {
    this.root = pdf.struct('Document');
    pdf.addStructure(this.root);
    this.descriptionWidth = this.width - AMOUNT_WIDTH - GAP;
  }

  private get width(): number {
    return this.pdf.page.width - 2 * MARGIN;
  }

  heading(type: 'H1' | 'H2', text: string, size = 12): void {
    if (type === 'H2') this.pdf.moveDown(0.8);
    this.pdf
      .font('Helvetica-Bold')
      .fontSize(size)
      .fillColor(TEXT)
      .text(winAnsi(text), MARGIN, this.pdf.y, { width: this.width, structParent: this.root, structType: type });
    this.pdf.moveDown(0.3);
  }

  paragraph(text: string, options: { color?: string; size?: number; width?: number } = {}): void {
    this.pdf
      .font('Helvetica')
      .fontSize(options.size ?? 10)
      .fillColor(options.color ?? TEXT)
      .text(winAnsi(text), MARGIN, this.pdf.y, {
        width: options.width ?? this.width,
        structParent: this.root,
        structType: 'P',
      });
  }

  /** Label and value side by side, one pair a line. */
  facts(items: DocumentFact[]): void {
    for (const item of items) this.row(item.label, item.value, { valueLeft: true });
  }

  /** A description on the left and an amount on the right, on one line (the longer one sets the next line). */
  row(left: string, right: string, options: { bold?: boolean; valueLeft?: boolean } = {}): void {
    const top = this.pdf.y;
    const font = options.bold === true ? 'Helvetica-Bold' : 'Helvetica';
    const leftWidth = options.valueLeft === true ? 150 : this.descriptionWidth;
    const rightX = MARGIN + leftWidth + GAP;
    this.pdf
      .font(font)
      .fontSize(10)
      .fillColor(options.valueLeft === true ? MUTED : TEXT);
    this.pdf.text(winAnsi(left), MARGIN, top, { width: leftWidth, structParent: this.root, structType: 'P' });
    const leftBottom = this.pdf.y;
    this.pdf.fillColor(TEXT);
    this.pdf.text(winAnsi(right), rightX, top, {
      width: this.width - leftWidth - GAP,
      align: options.valueLeft === true ? 'left' : 'right',
      structParent: this.root,
      structType: 'P',
    });
    this.pdf.x = MARGIN;
    this.pdf.y = Math.max(leftBottom, this.pdf.y) + 3;
  }

  /** A thin line across, marked as an artifact: layout, not content. */
  rule(): void {
    const y = this.pdf.y;
    this.pdf.markContent('Artifact', { type: 'Layout' });
    this.pdf
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + this.width, y)
      .lineWidth(0.5)
      .strokeColor('#b0b0b0')
      .stroke();
    this.pdf.endMarkedContent();
    this.pdf.y = y + 4;
  }

  space(): void {
    this.pdf.moveDown(1);
  }

  end(): void {
    this.root.end();
  }
}

// pdfkit's built-in fonts draw Windows-1252 (WinAnsi) only: any other character would come out as a wrong glyph, so
// it is written as "?" instead (the HTML page shows every character).
// Bytes 0x80-0x9F hold Windows-1252's extras (the euro sign, curly quotes, dashes); the five it leaves undefined
// decode to control characters, which are not kept.
const winAnsiExtras = new Set(
  Array.from(
    new TextDecoder('windows-1252').decode(Uint8Array.from({ length: 32 }, (_, index) => 0x80 + index)),
  ).filter((character) => (character.codePointAt(0) ?? 0) > 0xff),
);

/** `text` with every character the built-in fonts cannot draw replaced by "?". */
function winAnsi(text: string): string {
  return Array.from(text, (character) => {
    const code = character.codePointAt(0) ?? 0;
    const plain = code === 0x0a || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff);
    return plain || winAnsiExtras.has(character) ? character : '?';
  }).join('');
}
