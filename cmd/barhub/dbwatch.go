package main

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/embedded"
)

// watchDatabase exposes the database calls in flight and the embedded
// database's gate in the metrics, and logs every call that becomes stuck
// (store.StuckAfter), until ctx ends. None of it asks the database, so it
// tells the truth when the database does not answer.
func watchDatabase(ctx context.Context, st *store.Store, srv *embedded.Server, reg prometheus.Registerer) {
	gauge := func(name, help string, f func(store.DBHealth) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return f(st.Health()) })
	}
	counter := func(name, help string, f func(store.DBHealth) float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return f(st.Health()) })
	}
	reg.MustRegister(
		gauge("barhub_db_calls_in_flight", "Database calls this instance is waiting on.",
			func(h store.DBHealth) float64 { return float64(h.InFlight) }),
		gauge("barhub_db_oldest_call_seconds", "Age of the oldest database call in flight.",
			func(h store.DBHealth) float64 { return h.Oldest.Seconds() }),
		gauge("barhub_db_calls_stuck", "Database calls in flight for longer than the stuck limit (20 s).",
			func(h store.DBHealth) float64 { return float64(len(h.Stuck)) }),
		counter("barhub_db_calls_stuck_total", "Database calls that became stuck.",
			func(h store.DBHealth) float64 { return float64(h.StuckTotal) }),
	)
	if srv != nil {
		gate := func(name, help string, f func(embedded.GateStats) int64) prometheus.Collector {
			return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return float64(f(srv.GateStats())) })
		}
		gateCount := func(name, help string, f func(embedded.GateStats) int64) prometheus.Collector {
			return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(f(srv.GateStats())) })
		}
		reg.MustRegister(
			gate("barhub_db_gate_room_in_use", "SQLite connections the embedded database's admitted commands and open cursors may hold.",
				func(g embedded.GateStats) int64 { return g.InUse }),
			gate("barhub_db_gate_waiting", "Commands waiting for room in the embedded database.",
				func(g embedded.GateStats) int64 { return g.Waiting }),
			gateCount("barhub_db_gate_refused_total", "Updates refused for having more statements than the embedded database can finish.",
				func(g embedded.GateStats) int64 { return g.Refused }),
			gateCount("barhub_db_gate_busy_total", "Commands answered busy after waiting their limit for room.",
				func(g embedded.GateStats) int64 { return g.TimedOut }),
		)
	}
	go st.Watch(ctx, time.Second, nil)
}

// databaseStuck is the alert probe: an error naming the stuck calls.
func databaseStuck(st *store.Store) func() error {
	return func() error {
		h := st.Health()
		if len(h.Stuck) == 0 {
			return nil
		}
		return fmt.Errorf("%d database calls stuck, the oldest (%s) for %s", len(h.Stuck), h.Stuck[0], time.Since(h.Stuck[0].Started).Round(time.Second))
	}
}

// dbProbe is /readyz's database check: a real write and read.
type dbProbe struct{ st *store.Store }

func (p dbProbe) Ping(ctx context.Context) error { return p.st.Probe(ctx) }
