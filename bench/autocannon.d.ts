// Minimal typing of the autocannon load generator as the benches use it.
declare module 'autocannon' {
  interface Options { url: string; connections?: number; pipelining?: number; duration?: number; headers?: Record<string, string>; method?: string; body?: string }
  interface Result { requests: { average: number; total: number }; latency: { p50: number; p99: number; average: number }; non2xx: number; errors: number }
  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
