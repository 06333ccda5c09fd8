// Daemon environment for webhook tests: short retries and attempt limit, so a test waits for them in a moment.

/** Retries from 20 ms up to 200 ms, attempts limited to 1 s (production: 1 s, 1 h, 10 s); short printer timeouts. */
export const FAST_WEBHOOKS = {
  PRINTPROXY_WEBHOOK_RETRY_BASE_MS: '20',
  PRINTPROXY_WEBHOOK_RETRY_CAP_MS: '200',
  PRINTPROXY_WEBHOOK_TIMEOUT_MS: '1000',
  PRINTPROXY_TCP_CONNECT_TIMEOUT_MS: '1000',
  PRINTPROXY_TCP_IDLE_TIMEOUT_MS: '1500',
  PRINTPROXY_TCP_QUERY_TIMEOUT_MS: '300',
};
