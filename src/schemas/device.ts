// Device status schemas (seed 2.6): response documentation for GET /status.
import { Type, type Static } from '@sinclair/typebox';
import { FleetStatusSchema } from './fleet';

/** One extension instance status (seed 2.6); every field but id/active is a string. */
export const ExtensionInstanceStatusSchema = Type.Object({
  id: Type.Integer(),
  active: Type.Boolean(),
  os: Type.String(),
  daemon_version: Type.String(),
  cli_version: Type.String(),
  management: Type.String(),
  signal: Type.String(),
  relays: Type.String(),
  nameservers: Type.String(),
  fqdn: Type.String(),
  overlay_ip: Type.String(),
  interface_type: Type.String(),
  quantum_resistance: Type.String(),
  lazy_connection: Type.String(),
  networks: Type.String(),
  forwarding_rules: Type.String(),
  peers_count: Type.String(),
});
/** An extension instance status. */
export type ExtensionInstanceStatus = Static<typeof ExtensionInstanceStatusSchema>;

/** Extension status entry of GET /status. */
export const ExtensionStatusSchema = Type.Object({ name: Type.String(), instances: Type.Array(ExtensionInstanceStatusSchema) });
/** An extension status. */
export type ExtensionStatus = Static<typeof ExtensionStatusSchema>;

/** `content` of GET /status. */
export const DeviceStatusSchema = Type.Object({
  uptime: Type.Number(),
  version: Type.String(),
  load: Type.Number(),
  totalMemory: Type.Integer(),
  freeMemory: Type.Integer(),
  ipAddress: Type.String(),
  buildVersion: Type.String(),
  builtAt: Type.String(),
  hostname: Type.String(),
  domain: Type.String(),
  deviceId: Type.String(),
  extensions: Type.Array(ExtensionStatusSchema),
  warnings: Type.Array(Type.String()),
  fleet: Type.Optional(FleetStatusSchema),
});
/** Device status. */
export type DeviceStatus = Static<typeof DeviceStatusSchema>;
