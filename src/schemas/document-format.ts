// The document formats a job can carry, and the formats a job may declare.

/** What a document is: a page description (PDF), an image, a page raster (PWG, URF), a printer language (ZPL), or bytes passed as they are. */
export type DocumentFormat = 'pdf' | 'png' | 'jpeg' | 'pwg' | 'urf' | 'zpl' | 'raw';

/** A job's declared format; `auto` (anything) and `image` (PNG or JPEG) are recognised from the bytes at delivery. */
export type DeclaredFormat = DocumentFormat | 'auto' | 'image';
