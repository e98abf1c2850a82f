import type { CellValue } from '#common/contract/sql.ts';

/*
 * The XML of an XLSX export, byte for byte what exceljs 4.4's streaming writer made of the same rows with
 * `useStyles: false, useSharedStrings: false` (docs/decisions/0038-xlsx-written-by-dbui.md;
 * xlsx-workbook.test.ts compares the two): the same parts, the same cells, types and escaping. A cell is a number
 * (`<v>` as JavaScript writes it), a boolean (`t="b"`, 1 or 0) or text (`t="str"`, XML-escaped, control characters
 * other than tab, LF and CR dropped); null is no cell, and a row of nulls is no row.
 */

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MARKUP_NS = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
const TYPE_PREFIX = 'application/vnd.openxmlformats-officedocument';

// The control characters are the point: XML 1.0 cannot hold them.
// eslint-disable-next-line no-control-regex
const ESCAPED = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/;
// eslint-disable-next-line no-control-regex
const ESCAPED_ALL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/g;
const ENTITIES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  "'": '&apos;',
  '"': '&quot;',
};

/** Text as XML content or an attribute value: the five entities, and control characters XML 1.0 cannot hold
 * dropped (tab, LF and CR stay), as exceljs's xmlEncode. */
export function xmlText(text: string): string {
  return ESCAPED.test(text) ? text.replace(ESCAPED_ALL, (c) => ENTITIES[c] ?? '') : text;
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A worksheet up to its first row. */
export const SHEET_START =
  `${XML_DECLARATION}<worksheet xmlns="${MAIN_NS}" xmlns:r="${RELATIONSHIPS_NS}" xmlns:mc="${MARKUP_NS}" ` +
  'mc:Ignorable="x14ac" xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac">' +
  '<sheetFormatPr defaultRowHeight="15" outlineLevelRow="0" outlineLevelCol="0" x14ac:dyDescent="55"/><sheetData>';

/** A worksheet after its last row. */
export const SHEET_END =
  '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>' +
  '<pageSetup orientation="portrait" horizontalDpi="4294967295" verticalDpi="4294967295" scale="100" ' +
  'fitToWidth="1" fitToHeight="1"/></worksheet>';

/**
 * A sheet's `<row>` element for a row (empty for a row of nulls). Made once per sheet layout: each column's
 * letters and the `spans` attribute are worked out here, not per row.
 */
export function sheetRow(columns: readonly string[]) {
  const letters = columns.map((_, index) => columnLetters(index));
  const spans = `" spans="1:${columns.length}" x14ac:dyDescent="0.25">`;
  return (row: Readonly<Record<string, CellValue | undefined>>, number: number): string => {
    let cells = '';
    for (let i = 0; i < columns.length; i++) {
      const value = row[columns[i] as string];
      if (value === null || value === undefined) continue;
      const ref = `<c r="${letters[i]}${number}"`;
      if (typeof value === 'number') cells += `${ref}><v>${value}</v></c>`;
      else if (typeof value === 'boolean') cells += `${ref} t="b"><v>${value ? 1 : 0}</v></c>`;
      else cells += `${ref} t="str"><v>${xmlText(value)}</v></c>`;
    }
    return cells ? `<row r="${number}${spans}${cells}</row>` : '';
  };
}

/** The package's parts other than the sheets and the theme, in the order exceljs wrote them (after the sheets),
 * for sheets named `sheetNames` (xl/worksheets/sheet1.xml is the first); `created` is the workbook's time. */
export function workbookParts(sheetNames: readonly string[], created: Date): [path: string, xml: string][] {
  const sheets = sheetNames.map((name, index) => ({ name: xmlText(name), number: index + 1 }));
  const time = created.toISOString().replace(/\.\d{3}/, '');
  const override = (part: string, type: string) => `<Override PartName="${part}" ContentType="${type}"/>`;
  const relationship = (id: number, type: string, target: string) =>
    `<Relationship Id="rId${id}" Type="${type}" Target="${target}"/>`;
  return [
    [
      '[Content_Types].xml',
      `${XML_DECLARATION}\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        override('/xl/workbook.xml', `${TYPE_PREFIX}.spreadsheetml.sheet.main+xml`) +
        sheets
          .map((s) =>
            override(`/xl/worksheets/sheet${s.number}.xml`, `${TYPE_PREFIX}.spreadsheetml.worksheet+xml`),
          )
          .join('') +
        override('/xl/theme/theme1.xml', `${TYPE_PREFIX}.theme+xml`) +
        override('/xl/styles.xml', `${TYPE_PREFIX}.spreadsheetml.styles+xml`) +
        `<Default Extension="vml" ContentType="${TYPE_PREFIX}.vmlDrawing"/>` +
        override('/docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml') +
        override('/docProps/app.xml', `${TYPE_PREFIX}.extended-properties+xml`) +
        '</Types>',
    ],
    [
      'docProps/app.xml',
      `${XML_DECLARATION}\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ` +
        'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">' +
        '<Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>' +
        '<HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant>' +
        `<vt:variant><vt:i4>${sheets.length}</vt:i4></vt:variant></vt:vector></HeadingPairs>` +
        `<TitlesOfParts><vt:vector size="${sheets.length}" baseType="lpstr">` +
        sheets.map((s) => `<vt:lpstr>${s.name}</vt:lpstr>`).join('') +
        '</vt:vector></TitlesOfParts><Company></Company><LinksUpToDate>false</LinksUpToDate>' +
        '<SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged><AppVersion>16.0300</AppVersion>' +
        '</Properties>',
    ],
    [
      'docProps/core.xml',
      `${XML_DECLARATION}\n<cp:coreProperties ` +
        'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
        'xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
        '<dc:creator>ExcelJS</dc:creator><cp:lastModifiedBy>ExcelJS</cp:lastModifiedBy>' +
        `<dcterms:created xsi:type="dcterms:W3CDTF">${time}</dcterms:created>` +
        `<dcterms:modified xsi:type="dcterms:W3CDTF">${time}</dcterms:modified></cp:coreProperties>`,
    ],
    ['xl/styles.xml', STYLES],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_DECLARATION}\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        relationship(1, `${RELATIONSHIPS_NS}/styles`, 'styles.xml') +
        relationship(2, `${RELATIONSHIPS_NS}/theme`, 'theme/theme1.xml') +
        sheets
          .map((s) =>
            relationship(s.number + 2, `${RELATIONSHIPS_NS}/worksheet`, `worksheets/sheet${s.number}.xml`),
          )
          .join('') +
        '</Relationships>',
    ],
    [
      'xl/workbook.xml',
      `${XML_DECLARATION}\n<workbook xmlns="${MAIN_NS}" xmlns:r="${RELATIONSHIPS_NS}" xmlns:mc="${MARKUP_NS}" ` +
        'mc:Ignorable="x15" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main">' +
        '<fileVersion appName="xl" lastEdited="5" lowestEdited="5" rupBuild="9303"/>' +
        '<workbookPr defaultThemeVersion="164011" filterPrivacy="1"/><sheets>' +
        sheets
          .map(
            (s) =>
              `<sheet sheetId="${s.number}" name="${s.name}" state="visible" r:id="rId${s.number + 2}"/>`,
          )
          .join('') +
        '</sheets><calcPr calcId="171027"/></workbook>',
    ],
  ];
}

/** _rels/.rels: the workbook and the document properties. */
export const PACKAGE_RELATIONSHIPS =
  `${XML_DECLARATION}\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIPS_NS}/officeDocument" Target="xl/workbook.xml"/>` +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
  `<Relationship Id="rId3" Type="${RELATIONSHIPS_NS}/extended-properties" Target="docProps/app.xml"/>` +
  '</Relationships>';

/** xl/styles.xml: one font (Calibri 11, the theme's minor font), no cell formats beyond the default. */
const STYLES =
  `${XML_DECLARATION}\n<styleSheet xmlns="${MAIN_NS}" xmlns:mc="${MARKUP_NS}" mc:Ignorable="x14ac x16r2" ` +
  'xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" ' +
  'xmlns:x16r2="http://schemas.microsoft.com/office/spreadsheetml/2015/02/main">' +
  '<fonts x14ac:knownFonts="1" count="1"><font><color theme="1"/><family val="2"/><scheme val="minor"/>' +
  '<sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/>' +
  '<tableStyles count="0" defaultTableStyle="TableStyleMedium2" defaultPivotStyle="PivotStyleLight16"/>' +
  '<extLst><ext uri="{EB79DEF2-80B8-43e5-95BD-54CBDDF9020C}" ' +
  'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">' +
  '<x14:slicerStyles defaultSlicerStyle="SlicerStyleLight1"/></ext>' +
  '<ext uri="{9260A510-F301-46a8-8635-F512D64BE5F5}" ' +
  'xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main">' +
  '<x15:timelineStyles defaultTimelineStyle="TimeSlicerStyleLight1"/></ext></extLst></styleSheet>';
