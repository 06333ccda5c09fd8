// The fleet-side library's public surface: import from here (it needs nothing but `mqtt`).
export { FleetClient, type FleetClientOptions, type FleetRequest, type RequestOptions, type FleetEvent } from './fleet-client';
export { type FleetDevice } from './device-directory';
export { type FleetAnswer } from './pending-answers';
export { FleetTopics, DEFAULT_TOPIC_PREFIX } from './fleet-topics';
export { FleetClientError, type FleetClientErrorCode } from '../../errors';
