package hub

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

type metrics struct {
	connections   atomic.Int64
	subscriptions atomic.Int64

	messagesIn  prometheus.Counter
	messagesOut prometheus.Counter
	published   prometheus.Counter
	slowDrops   prometheus.Counter
	resyncs     prometheus.Counter
	catchUps    prometheus.Counter
	limited     prometheus.Counter
	// replaysOverBudget counts replays answered with a resync because the
	// person's replay budget did not cover them.
	replaysOverBudget prometheus.Counter
	latency           prometheus.Histogram

	collectors []prometheus.Collector
}

func newMetrics() *metrics {
	m := &metrics{
		messagesIn: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_hub_messages_in_total",
			Help: "Messages received from WebSocket clients.",
		}),
		messagesOut: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_hub_messages_out_total",
			Help: "Messages written to WebSocket clients.",
		}),
		published: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_hub_events_received_total",
			Help: "Events received from the broker by this instance.",
		}),
		slowDrops: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_hub_slow_consumer_drops_total",
			Help: "Connections closed because their send queue was full.",
		}),
		resyncs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_hub_resyncs_total",
			Help: "Resync messages sent because the history no longer reached back or a gap was seen.",
		}),
		catchUps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_hub_catch_ups_total",
			Help: "Times delivery from the broker was interrupted and missed events were re-read from its history.",
		}),
		limited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_hub_limited_total",
			Help: "Connections closed (4008) for holding too many sockets or asking for too many replays.",
		}),
		replaysOverBudget: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "barhub_hub_replays_over_budget_total",
			Help: "History replays answered with a resync because the person's replay budget (messages and bytes a minute) did not cover them.",
		}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "barhub_hub_publish_to_write_seconds",
			Help:    "Time from an event's publish to its write on a socket.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}),
	}
	conns := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "barhub_hub_connections",
		Help: "Open WebSocket connections.",
	}, func() float64 { return float64(m.connections.Load()) })
	subs := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "barhub_hub_subscriptions",
		Help: "Topic subscriptions over all open connections.",
	}, func() float64 { return float64(m.subscriptions.Load()) })
	m.collectors = []prometheus.Collector{conns, subs, m.messagesIn, m.messagesOut, m.published, m.slowDrops, m.resyncs, m.catchUps, m.limited, m.replaysOverBudget, m.latency}
	return m
}
