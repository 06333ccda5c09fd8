// Reads what GET /status reports about the machine: memory, load, addresses, names.
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Machine facts at one instant. */
export interface SystemInfo {
  uptime: number;
  load: number;
  totalMemory: number;
  freeMemory: number;
  ipAddress: string;
  hostname: string;
  domain: string;
}

/** A reader that re-reads the facts at most every `cacheMs` (a status poll storm costs no extra syscalls). */
export function cachedSystemInfo(cacheMs = 1000, now: () => number = Date.now): () => SystemInfo {
  let cached: { at: number; info: SystemInfo } | null = null;
  return () => {
    const t = now();
    if (!cached || t - cached.at >= cacheMs) cached = { at: t, info: readSystemInfo() };
    return cached.info;
  };
}

/** Reads the system facts now: MemAvailable from /proc/meminfo (os.freemem where absent), the first LAN IPv4. */
export function readSystemInfo(): SystemInfo {
  return {
    uptime: Math.round(os.uptime()),
    load: os.loadavg()[0],
    totalMemory: os.totalmem(),
    freeMemory: memAvailable() ?? os.freemem(),
    ipAddress: lanAddress(),
    hostname: os.hostname(),
    domain: dnsDomain(),
  };
}

function memAvailable(): number | null {
  try {
    const match = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** First non-internal IPv4 address, else the first non-internal IPv6, else 127.0.0.1. */
export function lanAddress(): string {
  const all = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []);
  const external = all.filter((a) => !a.internal);
  return (external.find((a) => a.family === 'IPv4') ?? external[0])?.address ?? '127.0.0.1';
}

function dnsDomain(): string {
  try {
    const text = readFileSync('/etc/resolv.conf', 'utf8');
    const match = /^(?:domain|search)\s+(\S+)/m.exec(text);
    return match ? match[1] : '';
  } catch {
    return '';
  }
}
