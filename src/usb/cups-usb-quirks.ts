// CUPS's USB quirks table as data: every entry of OpenPrinting/cups backend/org.cups.usb-quirks (as of commit 13c4fa6b2c23;
// the file CUPS's usb-libusb.c loads, and every entry is a printer or a USB-parallel printer adapter), in the file's
// order; the two lines the file repeats (Canon 04a9:1746 and 04a9:31dd, same flags) appear once. usb-quirks.ts says which flags we act on.

/** A CUPS quirk flag (the file's own words). */
export type CupsQuirk = 'blacklist' | 'delay-close' | 'no-reattach' | 'soft-reset' | 'unidir' | 'usb-init' | 'vendor-class' | 'whitelist';

/** One line of the table: vendor id, product id (null: every product of the vendor), flags. */
export type CupsQuirkEntry = readonly [vendorId: number, productId: number | null, quirks: readonly CupsQuirk[]];

/** The table, in the CUPS file's order; a vendor-and-product line wins over a vendor-wide one (CUPS find_quirks). */
export const CUPS_USB_QUIRKS: readonly CupsQuirkEntry[] = [
  [0x03f0, 0x0004, ['unidir']], // HP DeskJet 895C
  [0x03f0, 0x0104, ['unidir']], // HP DeskJet 880C
  [0x03f0, 0x0204, ['unidir']], // HP DeskJet 815C
  [0x03f0, 0x0304, ['unidir']], // HP DeskJet 810C/812C
  [0x03f0, 0x0404, ['unidir']], // HP DeskJet 830C
  [0x03f0, 0x0504, ['unidir']], // HP DeskJet 885C
  [0x03f0, 0x0604, ['unidir']], // HP DeskJet 840C
  [0x03f0, 0x0804, ['unidir']], // HP DeskJet 816C
  [0x03f0, 0x1104, ['unidir']], // HP Deskjet 959C
  [0x0409, 0xefbe, ['unidir']], // NEC Picty900 (HP OEM)
  [0x0409, 0xbef4, ['unidir']], // NEC Picty760 (HP OEM)
  [0x0409, 0xf0be, ['unidir']], // NEC Picty920 (HP OEM)
  [0x0409, 0xf1be, ['unidir']], // NEC Picty800 (HP OEM)
  [0x043d, 0x00f3, ['no-reattach']], // Lexmark e250d
  [0x0482, 0x0010, ['unidir']], // Kyocera Mita FS 820
  [0x04a9, 0x1095, ['unidir']], // Canon PIXMA iP6000D
  [0x04a9, 0x10a2, ['unidir']], // Canon PIXMA iP4200
  [0x04a9, 0x10b6, ['unidir']], // Canon PIXMA iP4300
  [0x04a9, 0x1721, ['unidir']], // Canon MP210
  [0x04a9, 0x1722, ['unidir']], // Canon MP220
  [0x04a9, 0x175f, ['unidir']], // Canon MP230
  [0x04a9, 0x1732, ['unidir']], // Canon MP240
  [0x04a9, 0x173a, ['unidir']], // Canon MP250
  [0x04a9, 0x1733, ['unidir']], // Canon MP260
  [0x04a9, 0x173b, ['unidir']], // Canon MP270
  [0x04a9, 0x1746, ['unidir']], // Canon MP280
  [0x04a9, 0x170c, ['unidir']], // Canon MP500
  [0x04a9, 0x1717, ['unidir']], // Canon MP510
  [0x04a9, 0x1730, ['unidir']], // Canon MP540
  [0x04a9, 0x173d, ['unidir']], // Canon MP550
  [0x04a9, 0x173e, ['unidir']], // Canon MP560
  [0x04a9, 0x1796, ['unidir']], // Canon PIXMA G1501
  [0x04a9, 0x26a3, ['no-reattach']], // Canon MF4150
  [0x04f9, 0x0007, ['no-reattach']], // Brother HL-1250
  [0x04f9, 0x001a, ['no-reattach']], // Brother HL-1430
  [0x04f9, 0x000d, ['no-reattach', 'unidir']], // Brother HL-1440
  [0x04f9, 0x000e, ['no-reattach', 'unidir']], // Brother HL-1450
  [0x06bc, 0x000b, ['no-reattach']], // Oki Okipage 14ex
  [0x06bc, 0x01c7, ['no-reattach']], // Oki B410d
  [0x04b8, 0x0001, ['no-reattach', 'unidir']], // Epson Stylus Color 740 / Photo 750
  [0x04b8, 0x0005, ['no-reattach']], // Epson Stylus Color 670
  [0x04b8, 0x0202, ['vendor-class']], // Epson receipt printer M129C (TM-T88 series)
  [0x067b, 0x2305, ['no-reattach', 'soft-reset', 'unidir']], // Prolific PL2305 USB-parallel adapter
  [0x0924, 0x3ce9, ['no-reattach']], // Xerox Phaser 3124
  [0x0924, 0x4293, ['no-reattach']], // Xerox WorkCentre 3210
  [0x1a86, 0x7584, ['no-reattach']], // QinHeng CH340S USB-parallel adapter
  [0x04e8, null, ['soft-reset']], // all Samsung devices
  [0x04e8, 0x330f, ['unidir']], // Samsung ML-2160 series
  [0x0a5f, null, ['unidir', 'no-reattach']], // all Zebra devices
  [0x04a9, 0x304a, ['blacklist']], // Canon CP-10
  [0x04a9, 0x3063, ['blacklist']], // Canon CP-100
  [0x04a9, 0x307c, ['blacklist']], // Canon CP-200
  [0x04a9, 0x307d, ['blacklist']], // Canon CP-300
  [0x04a9, 0x30bd, ['blacklist']], // Canon CP-220
  [0x04a9, 0x30be, ['blacklist']], // Canon CP-330
  [0x04a9, 0x30f6, ['blacklist']], // Canon SELPHY CP400
  [0x04a9, 0x310b, ['blacklist']], // Canon SELPHY CP600
  [0x04a9, 0x3127, ['blacklist']], // Canon SELPHY CP710
  [0x04a9, 0x3128, ['blacklist']], // Canon SELPHY CP510
  [0x04a9, 0x3141, ['blacklist']], // Canon SELPHY ES1
  [0x04a9, 0x3142, ['blacklist']], // Canon SELPHY CP730
  [0x04a9, 0x3143, ['blacklist']], // Canon SELPHY CP720
  [0x04a9, 0x3170, ['blacklist']], // Canon SELPHY CP750
  [0x04a9, 0x3171, ['blacklist']], // Canon SELPHY CP740
  [0x04a9, 0x3185, ['blacklist']], // Canon SELPHY ES2
  [0x04a9, 0x3186, ['blacklist']], // Canon SELPHY ES20
  [0x04a9, 0x31aa, ['blacklist']], // Canon SELPHY CP770
  [0x04a9, 0x31ab, ['blacklist']], // Canon SELPHY CP760
  [0x04a9, 0x31b0, ['blacklist']], // Canon SELPHY ES30
  [0x04a9, 0x31dd, ['blacklist']], // Canon SELPHY CP780
  [0x04a9, 0x31ee, ['blacklist']], // Canon SELPHY ES40
  [0x04a9, 0x3214, ['blacklist']], // Canon SELPHY CP800
  [0x04a9, 0x3255, ['blacklist']], // Canon SELPHY CP900
  [0x04a9, 0x3256, ['blacklist']], // Canon SELPHY CP810
  [0x04a9, 0x30f5, ['blacklist']], // Canon SELPHY CP500
  [0x04a9, 0x31af, ['blacklist']], // Canon SELPHY ES3
  [0x043d, 0x00d7, ['no-reattach']], // Lexmark E238
  [0x043d, 0x009a, ['no-reattach']], // Lexmark E238
  [0x04a9, 0x1728, ['unidir']], // Canon MX310
  [0x04a9, 0x1736, ['unidir']], // Canon MX320
  [0x067e, null, ['no-reattach']], // all Intermec devices
  [0x03f0, 0x0c17, ['delay-close']], // HP LaserJet 1010
  [0x03f0, 0x0e17, ['delay-close']], // HP LaserJet 1015
  [0x03f0, 0x0f17, ['delay-close']], // HP LaserJet 1150
  [0x03f0, 0x1017, ['delay-close']], // HP LaserJet 1300
  [0x03f0, 0x1117, ['delay-close']], // HP LaserJet 1300
  [0x03f0, 0x1d17, ['delay-close']], // HP LaserJet 1320
  [0x04a9, 0x1712, ['unidir']], // Canon MP530
  [0x0924, 0x4294, ['no-reattach']], // Xerox WorkCentre 3220
  [0x043d, 0x0139, ['no-reattach']], // Lexmark C540n
  [0x0482, 0x063f, ['no-reattach']], // Kyocera Ecosys P6026cdn
  [0x0482, 0x0677, ['no-reattach']], // Kyocera Ecosys P6130cdn
  [0x043d, 0x0123, ['no-reattach']], // Lexmark E260dn
  [0x03f0, 0x1e17, ['delay-close']], // HP LaserJet 1160
  [0x0519, null, ['unidir']], // all Star Micronics printers
  [0x043d, 0x000c, ['no-reattach']], // Lexmark Optra E310
  [0x03f0, 0x002a, ['no-reattach']], // HP LaserJet P1102
  [0x043d, 0x0226, ['no-reattach']], // Lexmark MS317dn
  [0x0519, 0x0001, ['delay-close']], // Star TSP743
  [0x043d, 0x00cc, ['no-reattach']], // Lexmark E120n
  [0x043d, 0x00cd, ['no-reattach']], // Lexmark E120n MT4506-100
  [0x0924, null, ['no-reattach']], // all Xerox printers
  [0x2730, 0x2008, ['unidir', 'delay-close']], // Citizen CT-S4000
  [0x2d84, null, ['unidir', 'no-reattach']], // all Arkscan label printers
  [0x03f0, 0x0314, ['no-reattach']], // HP DesignJet 130
  [0x04a9, 0x1731, ['unidir']], // Canon PIXMA MP480
];
