// Files for tests, made when they run (nothing binary is committed): images with sharp and by hand, PDFs with
// pdf-lib and byte by byte, ZIP archives. The package's own tests use them, and so do the services' tests and fuzz
// runs that send files.

export * from './active-pdfs.js';
export * from './archives.js';
export * from './bytes.js';
export * from './images.js';
export * from './pdf-writer.js';
export * from './pdfs.js';
