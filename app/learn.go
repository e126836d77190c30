package app

import (
	"context"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/plan"
)

// LearnStore is what learning from the night reads and keeps.
type LearnStore interface {
	PlanStore
	Settings(ctx context.Context) (guest.Settings, error)
	ServedGlasses(ctx context.Context, since time.Time) (map[string]int, error)
	SavePlanLearnt(ctx context.Context, l plan.Learnt) error
	ForgetPlanLearnt(ctx context.Context) error
}

// LearnFromNight keeps, per ingredient, what the night used over what the
// plan of params bought (plan.Learn) for the next plans, dated the event's
// day (today in the event's timezone when it has none). The night is set
// against the plan before anything was learnt, so learning twice from one
// night gives the same factors, not their product. A night with too few
// glasses, or nothing on the plan to set them against, is refused and
// what was learnt before stands.
func LearnFromNight(ctx context.Context, st LearnStore, params plan.Params, now time.Time) (plan.Learnt, error) {
	settings, err := st.Settings(ctx)
	if err != nil {
		return plan.Learnt{}, err
	}
	base, err := shoppingPlan(ctx, st, params, false, plan.Learnt{})
	if err != nil {
		return plan.Learnt{}, err
	}
	drinks, err := st.Drinks(ctx, menu.Filter{})
	if err != nil {
		return plan.Learnt{}, err
	}
	served, err := st.ServedGlasses(ctx, time.Time{})
	if err != nil {
		return plan.Learnt{}, err
	}
	glasses := 0
	for _, n := range served {
		glasses += n
	}
	day := now
	if settings.EventDate != nil {
		day = *settings.EventDate
	}
	l := plan.Learn(plan.Usage(drinks, served, base), glasses, day.In(settings.Loc()).Format(time.DateOnly))
	if len(l.Factors) == 0 {
		return plan.Learnt{}, NewError(Unprocessable, "nothing_to_learn", "the night has too little to learn from: it needs at least 10 served glasses and an ingredient the plan buys a pack or more of")
	}
	if err := st.SavePlanLearnt(ctx, l); err != nil {
		return plan.Learnt{}, err
	}
	return l, nil
}

// ForgetLearnt drops what the plan learnt: the next plan is the menu's
// and the headcount's alone.
func ForgetLearnt(ctx context.Context, st LearnStore) error {
	return st.ForgetPlanLearnt(ctx)
}
