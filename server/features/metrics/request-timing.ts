import type { FastifyInstance } from 'fastify';

/** The route label of a request no route matched (a 404): one series, never the raw URL. */
export const UNMATCHED_ROUTE = '(no route)';

/** Latency buckets in seconds: a page call is a few milliseconds, an export's start or a slow database seconds. */
export const LATENCY_BUCKETS = Float64Array.of(
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
);

const NAME = 'http_request_duration_seconds';

/** One series: its labels as Prometheus text, its count per bucket (the last one past every bound), sum, count. */
interface Series {
  labels: string;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** The request histogram: `observe` in the request path, `text` at each scrape. */
export interface RequestTiming {
  text(): string;
}

const escapeLabel = (value: string) =>
  value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');

/**
 * Times every answer by method, route pattern (/api/sql/:db, never the URL) and status, from Fastify's own clock
 * (reply.elapsedTime at onResponse), into http_request_duration_seconds (a Prometheus histogram; its _count is the
 * request rate). prom-client's own histogram hashes its labels into a new string on every observation, so the
 * series are kept here: nested maps keyed by the strings and numbers Fastify already holds, then a bucket search
 * and three additions. A request allocates nothing once its series exists (measured in metrics.db.test.ts).
 */
export function requestTiming(app: FastifyInstance): RequestTiming {
  const byRoute = new Map<string, Map<string, Map<number, Series>>>();
  const all: Series[] = [];
  const seriesOf = (route: string, method: string, status: number): Series => {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: `method="${escapeLabel(method)}",route="${escapeLabel(route)}",status="${status}"`,
        buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
      all.push(series);
    }
    return series;
  };
  app.addHook('onResponse', (request, reply, done) => {
    const series = seriesOf(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode);
    const seconds = reply.elapsedTime / 1000;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] ?? Infinity)) bucket++;
    series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
    series.sum += seconds;
    series.count += 1;
    done();
  });
  return {
    text() {
      const lines = [
        `# HELP ${NAME} Time from the request to its answer, by method, route pattern and status`,
        `# TYPE ${NAME} histogram`,
      ];
      for (const series of all) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((bound, i) => {
          cumulative += series.buckets[i] ?? 0;
          lines.push(`${NAME}_bucket{le="${bound}",${series.labels}} ${cumulative}`);
        });
        lines.push(`${NAME}_bucket{le="+Inf",${series.labels}} ${series.count}`);
        lines.push(`${NAME}_sum{${series.labels}} ${series.sum}`);
        lines.push(`${NAME}_count{${series.labels}} ${series.count}`);
      }
      return `${lines.join('\n')}\n`;
    },
  };
}
