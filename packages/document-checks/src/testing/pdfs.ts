import { PDFDocument, PDFName, PDFString } from 'pdf-lib';

/** PDFs made with pdf-lib when a test runs (which writes its objects into compressed object streams). */

export async function pdf(pages: number, build?: (document: PDFDocument) => void): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let page = 0; page < pages; page += 1) {
    document.addPage([595, 842]).drawText(`Certificate page ${page + 1}`, { x: 50, y: 780 });
  }
  build?.(document);
  return Buffer.from(await document.save({ addDefaultPage: false }));
}

/** A PDF whose catalog opens another program when the document opens. */
export const pdfWithLaunchAction = () =>
  pdf(1, (document) => {
    const action = document.context.obj({ Type: 'Action', S: 'Launch', F: PDFString.of('cmd.exe') });
    document.catalog.set(PDFName.of('OpenAction'), document.context.register(action));
  });

/** A PDF whose trailer names an encryption dictionary (the pages themselves are left readable). */
export const encryptedPdf = () =>
  pdf(1, (document) => {
    const encrypt = document.context.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      O: PDFString.of('o'),
      U: PDFString.of('u'),
      P: -4,
    });
    document.context.trailerInfo.Encrypt = document.context.register(encrypt);
  });

/** A PDF with `bytes` of one repeated character in its catalog, which pdf-lib compresses into an object stream. */
export const pdfWithPadding = (bytes: number) =>
  pdf(1, (document) => {
    document.catalog.set(PDFName.of('Padding'), PDFString.of('0'.repeat(bytes)));
  });

/** A one-page PDF showing the JPEG `photo` over the whole page, as a scanner writes one. */
export async function pdfWithPhoto(photo: Buffer): Promise<Buffer> {
  const document = await PDFDocument.create();
  const image = await document.embedJpg(photo);
  document.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  return Buffer.from(await document.save());
}
