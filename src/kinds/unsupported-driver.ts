// The driver of a printer no kind can reach (a USB printer without libusb, an unknown connection): every job fails clearly.
import { DeviceError } from '../errors';
import type { PrinterRecord } from '../schemas/printer';
import type { DriverStatus, PreflightOutcome, PrinterDriver } from './printer-driver';

/** Fails every job with UNSUPPORTED_CONTENT naming the printer and `why`; status `unknown`. */
export class UnsupportedDriver implements PrinterDriver {
  constructor(private readonly printer: PrinterRecord, private readonly why: string) {}

  preflight(): Promise<PreflightOutcome> {
    return Promise.resolve({ kind: 'ready' });
  }

  deliver(): Promise<never> {
    return Promise.reject(new DeviceError('UNSUPPORTED_CONTENT', `printing to ${this.printer.path} is not possible: ${this.why}`));
  }

  status(): Promise<DriverStatus> {
    return Promise.resolve({ status: 'unknown', statusReasons: [] });
  }
}
