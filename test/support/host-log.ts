/** One request as the test site's per-host log records it (GET /__hostlog). */
export interface HostLogEntry {
  path: string;
  /** Arrival time, ms (performance.timeOrigin + performance.now()). */
  at: number;
  userAgent: string;
  /** Requests to this host in flight when this one arrived, itself included. */
  concurrent: number;
}
