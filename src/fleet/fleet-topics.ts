// The topics of one device (fleet.md "Topics"): P = <topicPrefix>/<deviceId>.

/** Topic names below P. */
export interface FleetTopics {
  base: string;
  status: string;
  printers: string;
  req: string;
  res: string;
  /** P/events/<type> */
  event(type: string): string;
  /** True for a topic inside P/ (where a request's responseTopic may point). */
  inside(topic: string): boolean;
}

/** The topics of `deviceId` under `prefix`. */
export function fleetTopics(prefix: string, deviceId: string): FleetTopics {
  const base = `${prefix}/${deviceId}`;
  return {
    base,
    status: `${base}/status`,
    printers: `${base}/printers`,
    req: `${base}/req`,
    res: `${base}/res`,
    event: (type) => `${base}/events/${type}`,
    inside: (topic) => topic.startsWith(`${base}/`) && !/[#+]/.test(topic),
  };
}
