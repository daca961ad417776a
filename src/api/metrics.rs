//! `GET /metrics` in the Prometheus text format: requests by route and status, latency by
//! route, accepted decisions, open streams, waiters, the outbox's depth and the pool's use.
//! Figures are this instance's own (each instance is scraped).

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::{get, web, HttpResponse};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use super::error::ApiError;
use super::AppState;
use crate::service::notify::notifications::outbox_depth;
use crate::storage::WriteTurnStats;

// Every label comes from a fixed set, whatever a client sends: a label taken from the request
// as sent (a method of thousands of characters, a raw path) would make a new series per request
// and grow memory without bound.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    /// One of [`METHODS`], or `other`.
    method: &'static str,
    /// The route's pattern (`/api/v1/games/{id}`), never the raw path; `unmatched` for none.
    route: String,
    /// Chosen by the server, never by the client.
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    method: &'static str,
    route: String,
}

/// The methods counted by name; any other is `other`.
const METHODS: [&str; 7] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/// The method's label: its name if it is one of [`METHODS`], else `other`.
fn method_label(method: &actix_web::http::Method) -> &'static str {
    METHODS
        .into_iter()
        .find(|m| *m == method.as_str())
        .unwrap_or("other")
}

/// This instance's metrics.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram>,
    /// Decisions accepted through the API.
    pub decisions: Counter,
    /// Password-reset requests handled after their answer, whatever came of them.
    pub reset_requests_handled: Counter,
    open_streams: Gauge,
    waiters: Gauge,
    outbox_notifications: Gauge,
    outbox_webhooks: Gauge,
    pool_connections: Gauge,
    pool_idle: Gauge,
    write_turn: std::sync::Arc<WriteTurn>,
}

/// SQLite's write turn as of the latest scrape: counters the storage keeps, copied in at each
/// scrape (none on PostgreSQL).
#[derive(Debug, Default)]
struct WriteTurn(std::sync::Mutex<Option<WriteTurnStats>>);

impl Collector for WriteTurn {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let Some(stats) = *self.0.lock().unwrap_or_else(|p| p.into_inner()) else {
            return Ok(());
        };
        let e = &mut encoder;
        counter(
            e,
            "sqlite_write_turn_held_seconds",
            "Time writers held SQLite's one write turn (the serial section)",
            stats.held_seconds,
        )?;
        counter(
            e,
            "sqlite_write_turn_commit_seconds",
            "Of that, time spent committing",
            stats.commit_seconds,
        )?;
        counter(
            e,
            "sqlite_write_turn_sampled_held_seconds",
            "Time one write in 16 held the write turn (sampled for the next counter)",
            stats.sampled_held_seconds,
        )?;
        counter(
            e,
            "sqlite_write_turn_sampled_cpu_seconds",
            "Of that, time the holding thread was on a core (the rest: waiting for the disk or for a core)",
            stats.sampled_cpu_seconds,
        )?;
        counter(
            e,
            "sqlite_log_sync_seconds",
            "Time spent syncing the log to disk outside the write turn",
            stats.sync_seconds,
        )?;
        counter(
            e,
            "sqlite_writes",
            "Writes that took the write turn",
            stats.writes,
        )?;
        counter(
            e,
            "sqlite_commits",
            "SQLite write transactions committed (each holds one or more writes)",
            stats.batches,
        )?;
        counter(
            e,
            "sqlite_log_syncs",
            "Syncs of the log outside the write turn, each covering every commit before it",
            stats.syncs,
        )
    }
}

/// One counter whose value the storage keeps.
fn counter<N>(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: N,
) -> Result<(), std::fmt::Error>
where
    ConstCounter<N>: EncodeMetric,
{
    let counter = ConstCounter::new(value);
    counter.encode(encoder.encode_descriptor(name, help, None, counter.metric_type())?)
}

impl Default for Metrics {
    fn default() -> Metrics {
        let mut registry = Registry::with_prefix("keltis");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests by route and status",
            requests.clone(),
        );
        let latency = Family::<RouteLabels, Histogram>::new_with_constructor(|| {
            // 1 ms to about 16 s.
            Histogram::new(exponential_buckets(0.001, 2.0, 15))
        });
        registry.register(
            "http_request_duration_seconds",
            "Time to answer (to the start of the body for streams)",
            latency.clone(),
        );
        let decisions = Counter::default();
        registry.register(
            "decisions_accepted",
            "Decisions accepted through the API",
            decisions.clone(),
        );
        let reset_requests_handled = Counter::default();
        registry.register(
            "password_reset_requests_handled",
            "Password-reset requests handled after their 202 answer (a mail queued or not)",
            reset_requests_handled.clone(),
        );
        let gauge = |registry: &mut Registry, name: &str, help: &str| {
            let g = Gauge::default();
            registry.register(name, help, g.clone());
            g
        };
        let open_streams = gauge(&mut registry, "open_streams", "Open event streams");
        let waiters = gauge(
            &mut registry,
            "waiters",
            "Long polls and streams waiting for a wake-up",
        );
        let outbox_notifications = gauge(
            &mut registry,
            "outbox_notifications_pending",
            "Notifications waiting to be emailed",
        );
        let outbox_webhooks = gauge(
            &mut registry,
            "outbox_webhooks_pending",
            "Webhook deliveries waiting to be sent",
        );
        let pool_connections = gauge(
            &mut registry,
            "db_pool_connections",
            "Database connections open in the pool",
        );
        let pool_idle = gauge(
            &mut registry,
            "db_pool_idle_connections",
            "Database connections idle in the pool",
        );
        let write_turn = std::sync::Arc::new(WriteTurn::default());
        registry.register_collector(Box::new(write_turn.clone()));
        Metrics {
            registry,
            write_turn,
            requests,
            latency,
            decisions,
            reset_requests_handled,
            open_streams,
            waiters,
            outbox_notifications,
            outbox_webhooks,
            pool_connections,
            pool_idle,
        }
    }
}

impl Metrics {
    /// Count a request once it is answered.
    pub fn observe<B: MessageBody>(
        &self,
        method: &'static str,
        started: Instant,
        res: &ServiceResponse<B>,
    ) {
        let route = res
            .request()
            .match_pattern()
            .unwrap_or_else(|| "unmatched".into());
        let status = res.status().as_u16();
        self.requests
            .get_or_create(&RequestLabels {
                method,
                route: route.clone(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels { method, route })
            .observe(started.elapsed().as_secs_f64());
    }
}

/// One request being timed (the middleware's half before the handler).
pub struct Observation {
    metrics: Option<std::sync::Arc<Metrics>>,
    method: &'static str,
    started: Instant,
}

impl Observation {
    pub fn start(req: &ServiceRequest) -> Observation {
        Observation {
            metrics: req
                .app_data::<web::Data<AppState>>()
                .map(|s| s.metrics.clone()),
            method: method_label(req.method()),
            started: Instant::now(),
        }
    }

    /// Count the request with its answer.
    pub fn finish<B: MessageBody>(self, res: &ServiceResponse<B>) {
        if let Some(m) = &self.metrics {
            m.observe(self.method, self.started, res);
        }
    }
}

/// This instance's metrics in the Prometheus text format.
#[get("/metrics")]
pub async fn scrape(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let db = state.db.clone();
    let (notifications, webhooks) = web::block(move || outbox_depth(&db)).await??;
    let m = &state.metrics;
    m.outbox_notifications.set(notifications);
    m.outbox_webhooks.set(webhooks);
    m.open_streams.set(
        state
            .open_streams
            .load(std::sync::atomic::Ordering::Relaxed),
    );
    m.waiters.set(state.db.wakeups().waiters() as i64);
    let (open, idle) = state.db.pool_use();
    m.pool_connections.set(open as i64);
    m.pool_idle.set(idle as i64);
    *m.write_turn.0.lock().unwrap_or_else(|p| p.into_inner()) = state.db.write_turn_stats();
    let mut text = String::new();
    prometheus_client::encoding::text::encode(&mut text, &m.registry)
        .map_err(|e| ApiError::from(crate::service::ServiceError::Internal(e.to_string())))?;
    Ok(HttpResponse::Ok()
        .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .body(text))
}
