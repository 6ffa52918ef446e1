import type * as PdfLib from 'pdf-lib';

/**
 * pdf-lib, loaded when the first PDF is drawn: with its fonts and compression it is some 170 modules, and most
 * processes (the analysis child, a serve process between certificates, most test files) never draw one.
 * Types come from `import type`, which costs nothing at run time.
 */
export const pdfLib = () => require('pdf-lib') as typeof PdfLib;
