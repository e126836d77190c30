package app

import (
	"context"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/plan"
)

// PlanStore is what the shopping plan is made from.
type PlanStore interface {
	ComingGuests(ctx context.Context) ([]guest.Guest, error)
	Drinks(ctx context.Context, f menu.Filter) ([]menu.Drink, error)
	OrderedDrinks(ctx context.Context) (map[string]int, error)
	OutOfStock(ctx context.Context) (map[string]bool, error)
	PlanLearnt(ctx context.Context) (plan.Learnt, error)
}

// ShoppingPlan reads what the plan is made from (the people coming, the
// whole menu, the stock marks and what has been ordered so far) and makes
// it: the host's shopping page, the night's report and the running-low
// estimate read the same plan. What the plan learnt from a night
// (LearnFromNight) multiplies the list.
func ShoppingPlan(ctx context.Context, st PlanStore, params plan.Params, trimmed bool) (plan.Plan, error) {
	learnt, err := st.PlanLearnt(ctx)
	if err != nil {
		return plan.Plan{}, err
	}
	return shoppingPlan(ctx, st, params, trimmed, learnt)
}

func shoppingPlan(ctx context.Context, st PlanStore, params plan.Params, trimmed bool, learnt plan.Learnt) (plan.Plan, error) {
	coming, err := st.ComingGuests(ctx)
	if err != nil {
		return plan.Plan{}, err
	}
	drinks, err := st.Drinks(ctx, menu.Filter{})
	if err != nil {
		return plan.Plan{}, err
	}
	ordered, err := st.OrderedDrinks(ctx)
	if err != nil {
		return plan.Plan{}, err
	}
	outOfStock, err := st.OutOfStock(ctx)
	if err != nil {
		return plan.Plan{}, err
	}
	guests := make([]plan.Guest, 0, len(coming))
	for _, g := range coming {
		guests = append(guests, plan.GuestsOf(g)...)
	}
	return plan.Make(plan.Input{Guests: guests, Drinks: drinks, Ordered: ordered, OutOfStock: outOfStock, Params: params, Trimmed: trimmed, Learnt: learnt}), nil
}
