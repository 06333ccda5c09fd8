// Printer schemas (seed 2.2 plus decisions.md): the one source of types, validation and openapi.json.
import { Type, type Static } from '@sinclair/typebox';
import { CONTENT_KINDS } from '../languages';
import { HostSchema } from './host';

/** How the device reaches a printer. */
export const ConnectionSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('network'), Type.Literal('usb')]),
    host: Type.Optional(Type.String({ minLength: 1, maxLength: 253 })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    protocol: Type.Optional(
      Type.Union([Type.Literal('tcp'), Type.Literal('ipp'), Type.Literal('ipps'), Type.Literal('http'), Type.Literal('https'), Type.Literal('usb')]),
    ),
    resourcePath: Type.Optional(Type.String({ maxLength: 1024 })),
    serialNumber: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
/** A printer connection. */
export type Connection = Static<typeof ConnectionSchema>;

/** What a printer consumes: the `content` of one language of the table in src/languages (raw bytes are the fallback language's). */
export const ContentKindSchema = Type.Union(CONTENT_KINDS.map((content) => Type.Literal(content)));
/** A printer content kind. */
export type ContentKind = Static<typeof ContentKindSchema>;

/** IPP capabilities captured during discovery (seed 2.2). */
export const CapabilitiesSchema = Type.Object({
  makeAndModel: Type.Optional(Type.String()),
  colorSupported: Type.Optional(Type.Boolean()),
  documentFormatsSupported: Type.Optional(Type.Array(Type.String())),
  mediaSupported: Type.Optional(Type.Array(Type.String())),
  sidesSupported: Type.Optional(Type.Array(Type.String())),
  copiesSupported: Type.Optional(Type.Tuple([Type.Integer(), Type.Integer()])),
});
/** Printer capabilities. */
export type Capabilities = Static<typeof CapabilitiesSchema>;

/** Label printer resolutions in dots per inch (6, 8, 12 and 24 dots/mm). */
export const DpiSchema = Type.Union([Type.Literal(152), Type.Literal(203), Type.Literal(300), Type.Literal(600)]);
/** A label printer resolution in dots per inch. */
export type Dpi = Static<typeof DpiSchema>;

/** Paper roll widths of receipt printers, mm (80 mm paper prints 72 mm wide, 58 mm paper 48 mm). */
export const PaperWidthSchema = Type.Union([Type.Literal(58), Type.Literal(80)]);
/** A receipt paper roll width in mm. */
export type PaperWidth = Static<typeof PaperWidthSchema>;

/** How a printer is shared (printer-sharing.md): over IPP Everywhere at `/ipp/print/<id>`, and on a raw TCP port of its own. */
export const ShareSettingsSchema = Type.Object(
  {
    ipp: Type.Boolean({ description: 'Printable over IPP Everywhere at ipp://HOST:IPPPORT/ipp/print/<id> (and on the API listeners), advertised over mDNS.' }),
    rawPort: Type.Union([Type.Integer({ minimum: 1, maximum: 65535 }), Type.Null()], { description: 'TCP port whose connections each become one job to this printer (9100, 9101, ...); null: none.' }),
  },
  { additionalProperties: false },
);
/** A printer's sharing settings. */
export type ShareSettings = Static<typeof ShareSettingsSchema>;

/** Sharing of a printer nobody shared: off on both doors. */
export const NOT_SHARED: ShareSettings = Object.freeze({ ipp: false, rawPort: null }) as ShareSettings;

/** Live printer state. */
export const PrinterStatusSchema = Type.Union([Type.Literal('online'), Type.Literal('offline'), Type.Literal('error'), Type.Literal('unknown')]);
/** A live printer state. */
export type PrinterStatus = Static<typeof PrinterStatusSchema>;

/** A printer as the API returns it (seed 2.2 + `tags`). */
export const PrinterSchema = Type.Object({
  id: Type.String(),
  type: Type.Literal('printer'),
  path: Type.String(),
  connection: ConnectionSchema,
  model: Type.Optional(Type.String()),
  content: ContentKindSchema,
  supportedFormats: Type.Optional(Type.Array(Type.String())),
  discovered: Type.Boolean(),
  localAddress: Type.Optional(Type.String()),
  status: PrinterStatusSchema,
  statusReasons: Type.Array(Type.String()),
  capabilities: Type.Optional(CapabilitiesSchema),
  tags: Type.Array(Type.String()),
  dpi: Type.Optional(
    Type.Union(DpiSchema.anyOf, {
      description: 'Resolution PDFs are rendered at for this label printer: set with PATCH, else read from a USB model string; absent when unknown (203 is used). Other printers ignore it.',
    }),
  ),
  dither: Type.Optional(Type.Boolean({ description: 'Error-diffusion dithering of PDFs and images for this label or receipt printer (a job\'s options.dither wins); absent means off.' })),
  paperWidth: Type.Optional(Type.Union(PaperWidthSchema.anyOf, { description: 'Receipt printers: paper roll width in mm; PDFs and images are rendered 72 mm wide on 80 mm paper (the default), 48 mm on 58 mm. Other printers ignore it.' })),
  share: ShareSettingsSchema,
});
/** A printer as answered by the API. */
export type Printer = Static<typeof PrinterSchema>;

/** A printer's live state. */
export interface LiveStatus {
  status: PrinterStatus;
  statusReasons: string[];
}

/** What a discovery source reports for one printer; the registry adds id, tags, status. */
export interface DiscoveredPrinter {
  path: string;
  connection: Connection;
  model?: string;
  content: ContentKind;
  supportedFormats?: string[];
  localAddress?: string;
  capabilities?: Capabilities;
  /** Transport-specific locator the transport factory needs (USB bus/port, IPP URI). */
  locator?: Record<string, string | number>;
}

/** A tag: letters, digits, dash, underscore, dot. */
export const TagSchema = Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' });

/** Body of `POST /printers` (decisions.md). */
export const CreatePrinterBodySchema = Type.Object(
  {
    connection: Type.Object(
      {
        type: Type.Union([Type.Literal('network'), Type.Literal('usb')]),
        host: HostSchema,
        port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
        protocol: Type.Union([Type.Literal('tcp'), Type.Literal('ipp'), Type.Literal('ipps'), Type.Literal('http'), Type.Literal('https')]),
        resourcePath: Type.Optional(Type.String({ maxLength: 1024 })),
      },
      { additionalProperties: false },
    ),
    content: Type.Optional(ContentKindSchema),
    model: Type.Optional(Type.String({ maxLength: 256 })),
    tags: Type.Optional(Type.Array(TagSchema, { maxItems: 64 })),
  },
  { additionalProperties: false },
);
/** A create-printer request. */
export type CreatePrinterBody = Static<typeof CreatePrinterBodySchema>;

/** Body of `PATCH /printers/{path}`. */
export const PatchPrinterBodySchema = Type.Object(
  {
    tags: Type.Optional(Type.Array(TagSchema, { maxItems: 64 })),
    model: Type.Optional(Type.String({ maxLength: 256 })),
    content: Type.Optional(ContentKindSchema),
    dpi: Type.Optional(Type.Union([DpiSchema, Type.Null()], { description: 'Printer resolution in dpi for rendering PDFs (label printers); null forgets it.' })),
    dither: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: 'Dither PDFs for this label printer by default; null forgets it.' })),
    paperWidth: Type.Optional(Type.Union([PaperWidthSchema, Type.Null()], { description: 'Receipt printers: paper roll width in mm (58 or 80); null forgets it (80).' })),
    share: Type.Optional(ShareSettingsSchema),
  },
  { additionalProperties: false },
);
/** A patch-printer request. */
export type PatchPrinterBody = Static<typeof PatchPrinterBodySchema>;

/** A printer as the device knows it: what discovery or the user gave, plus id, tags, origin and render settings. */
export interface PrinterRecord extends DiscoveredPrinter {
  id: string;
  tags: string[];
  discovered: boolean;
  /** Resolution for rendering documents: set by PATCH, else what the printer reports; undefined when unknown. */
  dpi?: Dpi;
  /** Dither rendered documents by default (PATCH); undefined when not set. */
  dither?: boolean;
  /** Receipt printers: the paper roll width in mm (PATCH); undefined means 80. */
  paperWidth?: PaperWidth;
  /** How the printer is shared (PATCH); absent means NOT_SHARED. */
  share?: ShareSettings;
}
