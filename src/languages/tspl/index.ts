// TSPL (TSC, Godex, Xprinter and most cheap label printers) as one language module: its facts and its functions.
import type { PageEncoderFactory } from '../../encoders/page-encoder';
import type { LiveStatus } from '../../schemas/printer';
import type { PreflightOutcome } from '../../schemas/readiness';
import type { Transport } from '../../transports/transport';
import type { DeviceId } from '../../usb/ieee1284';
import { labelPrinterIpp } from '../label-media';
import type { LanguageModule, TestPrintInfo as TestLabelInfo } from '../printer-language';
import { tsplEncoderWith, tsplLabelEncoder, TSPL_DEFAULTS } from './tspl-encoder';
import { speaksTspl } from './tspl-device-id';
import { tsplLiveStatus, tsplPreflight } from './tspl-probe';
import { looksLikeTspl } from './tspl-sniff';
import { decodeTsplStatus, isTsplStatusComplete, preflightFromTsplReply, statusReasonsFromTsplStatus, TSPL_RESET_COMMAND, TSPL_STATUS_QUERY } from './tspl-status';
import { buildTsplTestLabel } from './tspl-test-label';

/**
 * MIME type of TSPL passed through over IPP. TSPL has no registered type; this vendor type follows the project's
 * `application/vnd.escpos`, and `application/octet-stream` is offered next to it for clients that send raw bytes.
 */
export const TSPL_MIME_TYPE = 'application/vnd.tsc-tspl';

/** Everything the rest of the daemon needs to know about TSPL printers; one object, read-only. */
export interface TsplLanguage extends LanguageModule {
  /** The language's name in tables and logs. */
  readonly name: 'tspl';
  /** The printer's `content` value for TSPL printers (passed through unmodified). */
  readonly contentType: 'tspl';
  /** MIME type of pass-through TSPL (IPP document-format, PreparedDocument.mimeType). */
  readonly passThroughMimeType: string;
  /** IPP document formats taken as-is besides the rendered ones (PDF, PWG, URF, JPEG, PNG). */
  readonly ownIppFormats: readonly string[];
  /** Default label: 4x6 in at 203 dpi, 812 x 1218 dots, like ZPL. */
  readonly geometry: { readonly dpi: number; readonly widthIn: number; readonly heightIn: number; readonly widthDots: number; readonly heightDots: number };
  /** DNS-SD `kind` TXT value. */
  readonly dnsSdKind: string;
  /** The IEEE 1284 device id text a TSPL printer sends (what an emulated device offers). */
  readonly deviceIdText: string;
  /** Whether a parsed device id lists TSPL in CMD. */
  readonly matchesDeviceId: (id: DeviceId) => boolean;
  /** Whether raw bytes look like a TSPL job (for `auto` formats). */
  readonly sniff: (bytes: Uint8Array) => boolean;
  /** Rendered pages → TSPL at 203 dpi; `encoderFor` takes another resolution. */
  readonly encoder: PageEncoderFactory;
  /** The encoder for a printer of `dpi` dots per inch (gap, density, direction at their defaults). */
  readonly encoderFor: (dpi: number) => PageEncoderFactory;
  /** Status over any transport: bytes to send, when the reply is whole, and what it means. */
  readonly status: {
    readonly query: Uint8Array;
    readonly reset: Uint8Array;
    readonly isComplete: (reply: Uint8Array) => boolean;
    readonly preflight: (reply: Uint8Array) => PreflightOutcome;
    readonly statusReasons: (reply: Uint8Array) => string[];
    /** Seed 4.5.1 pre-flight over any transport (one query, no reset; silence lets the job be attempted). */
    readonly preflightOver: (transport: Transport, timeoutMs: number) => Promise<PreflightOutcome>;
    /** Live status over any transport: online, error with reasons, unknown when silent, offline when unreachable. */
    readonly liveStatusOver: (transport: Transport, timeoutMs: number) => Promise<LiveStatus>;
  };
  /** The printable test label (TSPL text). */
  readonly testLabel: (info: TestLabelInfo) => string;
}

/** IPP printer-state-reasons of a non-empty `<ESC>!?` reply (its last byte); none for an empty one. */
function reasonsOfReply(reply: Uint8Array): string[] {
  return reply.length === 0 ? [] : statusReasonsFromTsplStatus(decodeTsplStatus(reply[reply.length - 1]));
}

/** The TSPL language module: the one line a language table needs is `tspl: TSPL`. */
export const TSPL: TsplLanguage = {
  name: 'tspl',
  contentType: 'tspl',
  passThroughMimeType: TSPL_MIME_TYPE,
  ownIppFormats: [TSPL_MIME_TYPE, 'application/octet-stream'],
  geometry: { dpi: TSPL_DEFAULTS.dpi, widthIn: 4, heightIn: 6, widthDots: 812, heightDots: 1218 },
  dnsSdKind: 'label',
  deviceIdText: 'MFG:Generic;MDL:TSPL Label Printer;CMD:TSPL;CLS:PRINTER;',
  matchesDeviceId: speaksTspl,
  sniff: looksLikeTspl,
  encoder: tsplLabelEncoder,
  encoderFor: (dpi) => tsplEncoderWith({ dpi }),
  status: {
    query: TSPL_STATUS_QUERY,
    reset: TSPL_RESET_COMMAND,
    isComplete: isTsplStatusComplete,
    preflight: preflightFromTsplReply,
    statusReasons: reasonsOfReply,
    preflightOver: tsplPreflight,
    liveStatusOver: tsplLiveStatus,
  },
  testLabel: buildTsplTestLabel,
  content: 'tspl',
  nativeFormat: 'raw',
  nativeRepeatsCopies: false,
  transports: ['tcp', 'usb'],
  pages: { encoderFor: (dpi) => tsplEncoderWith({ dpi }), geometry: 'label' },
  ipp: labelPrinterIpp('TSPL', TSPL_MIME_TYPE, 'raw'),
  // one `<ESC>!?` on any transport; never `<ESC>!R` (it restarts the printer and drops the labels it holds)
  device: { preflight: (transport, timeoutMs) => tsplPreflight(transport, timeoutMs), liveStatus: tsplLiveStatus, overNetwork: true, hostQueries: false },
  testDocument: async (_printer, info) => ({ title: 'Test label', data: Buffer.from(buildTsplTestLabel(info), 'latin1'), format: 'raw', contentType: 'raw' }),
  // a duplicate label is better than a lost shipment (as ZPL)
  rawPortHostQueries: 'keep',
  interruptedJobs: 'resend',
};
