package app

import (
	"context"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/plan"
)

// The night's record for the host (docs/REPORTS.md): the report after the
// party, and what was used against the shopping plan.

// NightStore is what the report reads.
type NightStore interface {
	ReportOrders(ctx context.Context) ([]order.Order, bool, error)
	Settings(ctx context.Context) (guest.Settings, error)
	Drinks(ctx context.Context, f menu.Filter) ([]menu.Drink, error)
	ServedGlasses(ctx context.Context, since time.Time) (map[string]int, error)
}

// NightReport is the report of the night so far.
type NightReport struct {
	order.Report
	// Timezone is the event's, which the hours are in.
	Timezone string `json:"timezone"`
	// Partial is set when the night had more orders than one report
	// reads (store.MaxReportOrders): the newest are reported.
	Partial bool `json:"partial"`
	// Usage is each ingredient the served glasses used, against p.
	Usage []plan.Used `json:"usage"`
}

// Night makes the report; p is the shopping plan to set the usage
// against, anonymous leaves every guest's name out.
func Night(ctx context.Context, st NightStore, p plan.Plan, anonymous bool) (NightReport, error) {
	settings, err := st.Settings(ctx)
	if err != nil {
		return NightReport{}, err
	}
	orders, more, err := st.ReportOrders(ctx)
	if err != nil {
		return NightReport{}, err
	}
	drinks, err := st.Drinks(ctx, menu.Filter{})
	if err != nil {
		return NightReport{}, err
	}
	served, err := st.ServedGlasses(ctx, time.Time{})
	if err != nil {
		return NightReport{}, err
	}
	loc := settings.Loc()
	return NightReport{
		Report:   order.Summarise(orders, loc, anonymous),
		Timezone: loc.String(),
		Partial:  more,
		Usage:    plan.Usage(drinks, served, p),
	}, nil
}
