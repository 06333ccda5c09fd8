// Whether a 1284 device id names TSPL, from ids as TSPL printers send them and from ids of other printers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { speaksTspl } from '../../../src/languages/tspl/tspl-device-id';
import { parseDeviceId } from '../../../src/usb/ieee1284';

const speaks = (text: string) => speaksTspl(parseDeviceId(text));

test('CMD:TSPL and CMD:TSPL2 name TSPL, alone or among other command sets, in any case', () => {
  assert.equal(speaks('MFG:TSC;MDL:TE200;CMD:TSPL;CLS:PRINTER;'), true);
  assert.equal(speaks('MANUFACTURER:Xprinter;MODEL:XP-365B;COMMAND SET:TSPL2;'), true);
  assert.equal(speaks('MFG:TSC;MDL:TTP-244 Pro;CMD:ZPL2,TSPL2,EPL2;'), true);
  assert.equal(speaks('MFG:Godex;MDL:G500;CMD:EZPL, tspl;'), true);
  assert.equal(speaks('MFG:Generic;MDL:TSPL Label Printer;CMD:TSPL;CLS:PRINTER;'), true, 'the emulated printer\'s device id text');
});

test('ids without TSPL in CMD do not: ZPL, ESC/POS, PCL, a TSPL word elsewhere, no CMD', () => {
  assert.equal(speaks('MFG:Zebra Technologies;MDL:ZD420;CMD:ZPL;'), false);
  assert.equal(speaks('MFG:EPSON;MDL:TM-T20II;CMD:ESC/POS;'), false);
  assert.equal(speaks('MFG:HP;MDL:LaserJet;CMD:PCL,PJL,POSTSCRIPT;'), false);
  assert.equal(speaks('MFG:TSPL Corp;MDL:TSPL-100;CMD:ZPL;'), false);
  assert.equal(speaks('MFG:Acme;MDL:Label;CMD:TSPLX;'), false);
  assert.equal(speaks('MFG:Acme;MDL:Label;'), false);
});
