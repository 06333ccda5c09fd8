// Topic names of fleet.md ("Topics", P = <topicPrefix>/<deviceId>) as the fleet side reads and writes them.

/** The topic prefix a device uses unless its settings say otherwise. */
export const DEFAULT_TOPIC_PREFIX = 'printproxy/v1';

/** The kinds of topic under P/ that the fleet side reads. */
export type DeviceTopicKind = 'status' | 'printers' | 'res' | 'events';

/** A topic under P/ taken apart: whose it is, what kind, and the rest (the event type, or a response topic's suffix). */
export interface ParsedDeviceTopic {
  deviceId: string;
  kind: DeviceTopicKind;
  rest: string;
}

/** Topic builders and the parser for one topic prefix. */
export class FleetTopics {
  constructor(readonly prefix: string = DEFAULT_TOPIC_PREFIX) {}

  /** `P/<kind>` of one device. */
  of(deviceId: string, kind: 'status' | 'printers' | 'req' | 'res'): string {
    return `${this.prefix}/${deviceId}/${kind}`;
  }

  /** The response topic this fleet client names in its requests to `deviceId` (inside P/, so the device may write it). */
  responseTopic(deviceId: string, clientId: string): string {
    return `${this.prefix}/${deviceId}/res/${clientId}`;
  }

  /** Filter of one kind for every device (`+`) or one. */
  filter(kind: 'status' | 'printers' | 'res', deviceId = '+'): string {
    return `${this.prefix}/${deviceId}/${kind}`;
  }

  /** Filter of the answers addressed to `clientId` by any device. */
  responseFilter(clientId: string): string {
    return `${this.prefix}/+/res/${clientId}`;
  }

  /** Filter of the events of one device, or of all (`+`). */
  eventsFilter(deviceId = '+'): string {
    return `${this.prefix}/${deviceId}/events/#`;
  }

  /** Takes a topic under this prefix apart; null for anything else. */
  parse(topic: string): ParsedDeviceTopic | null {
    if (!topic.startsWith(this.prefix + '/')) return null;
    const [deviceId, kind, ...rest] = topic.slice(this.prefix.length + 1).split('/');
    if (!deviceId || !isReadKind(kind)) return null;
    return { deviceId, kind, rest: rest.join('/') };
  }
}

function isReadKind(kind: string | undefined): kind is DeviceTopicKind {
  return kind === 'status' || kind === 'printers' || kind === 'res' || kind === 'events';
}
