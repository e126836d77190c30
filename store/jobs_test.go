package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func enqueue(t *testing.T, s *store.Store, kind, subject string) store.Job {
	t.Helper()
	j, err := s.EnqueueJob(context.Background(), store.NewJob{Kind: kind, Subject: subject, Payload: map[string]string{"subject": subject}})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestJobLifecycle(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)

	j := enqueue(t, s, store.JobImagePrompt, "drink:d1")
	if j.Status != store.JobQueued || j.Attempts != 0 || j.MaxAttempts != store.DefaultJobAttempts {
		t.Fatalf("new job: %+v", j)
	}
	due, err := s.DueJobs(ctx, time.Now().Add(time.Second), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 1 || due[0].ID != j.ID || due[0].Payload["subject"] != "drink:d1" {
		t.Fatalf("due: %+v", due)
	}

	run, err := s.StartJob(ctx, due[0], "w1", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != store.JobRunning || run.Attempts != 1 || run.Worker != "w1" || run.LeaseUntil == nil {
		t.Fatalf("started: %+v", run)
	}
	// A running job with a live lease is nobody else's to take.
	if due, _ := s.DueJobs(ctx, time.Now(), 10); len(due) != 0 {
		t.Fatalf("running job is due: %+v", due)
	}

	done, err := s.FinishJob(ctx, run, map[string]string{"prompt": "a coupe"}, store.TokenUsage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15})
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != store.JobDone || done.Result["prompt"] != "a coupe" || done.Usage.TotalTokens != 15 || done.FinishedAt == nil {
		t.Fatalf("done: %+v", done)
	}
	// The stale copy of the attempt cannot write again.
	if _, err := s.FinishJob(ctx, run, nil, store.TokenUsage{}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second finish: %v", err)
	}
}

func TestJobStartHasOneWinner(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	for round := range 3 {
		j := enqueue(t, s, store.JobRecommendation, "r")
		var wins atomic.Int32
		var wg sync.WaitGroup
		for w := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.StartJob(ctx, j, "w"+string(rune('a'+w)), time.Minute)
				switch {
				case err == nil:
					wins.Add(1)
				case !errors.Is(err, store.ErrConflict):
					t.Errorf("start: %v", err)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("round %d: %d workers started the job, want 1", round, wins.Load())
		}
		got, err := s.JobByID(ctx, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Attempts != 1 || got.Status != store.JobRunning {
			t.Fatalf("round %d: %+v", round, got)
		}
	}
}

func TestJobRetryBackoffAndUsage(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	j := enqueue(t, s, store.JobImagePrompt, "drink:d2")
	run, err := s.StartJob(ctx, j, "w1", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	next := time.Now().Add(time.Hour)
	queued, err := s.RetryJobLater(ctx, run, "ThrottlingException: slow down", next, store.TokenUsage{InputTokens: 7, TotalTokens: 7})
	if err != nil {
		t.Fatal(err)
	}
	if queued.Status != store.JobQueued || queued.LastError != "ThrottlingException: slow down" || queued.Attempts != 1 {
		t.Fatalf("queued: %+v", queued)
	}
	if due, _ := s.DueJobs(ctx, time.Now(), 10); len(due) != 0 {
		t.Fatalf("job due before its backoff ended: %+v", due)
	}
	due, err := s.DueJobs(ctx, next.Add(time.Second), 10)
	if err != nil || len(due) != 1 {
		t.Fatalf("due after backoff: %v %+v", err, due)
	}
	run2, err := s.StartJob(ctx, due[0], "w2", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	done, err := s.FinishJob(ctx, run2, nil, store.TokenUsage{InputTokens: 3, OutputTokens: 4, TotalTokens: 7})
	if err != nil {
		t.Fatal(err)
	}
	if done.Attempts != 2 || done.Usage != (store.TokenUsage{InputTokens: 10, OutputTokens: 4, TotalTokens: 14}) {
		t.Fatalf("usage is not summed over attempts: %+v", done)
	}
}

func TestJobLeaseExpiryIsReclaimed(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	j := enqueue(t, s, store.JobImagePrompt, "drink:d3")
	// Worker A starts and "crashes": its lease is already over.
	runA, err := s.StartJob(ctx, j, "A", -time.Second)
	if err != nil {
		t.Fatal(err)
	}
	due, err := s.DueJobs(ctx, time.Now(), 10)
	if err != nil || len(due) != 1 || due[0].Status != store.JobRunning {
		t.Fatalf("expired lease is not due: %v %+v", err, due)
	}
	runB, err := s.StartJob(ctx, due[0], "B", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if runB.Attempts != 2 || runB.Worker != "B" || !strings.Contains(runB.LastError, "attempt 1 was abandoned") {
		t.Fatalf("reclaimed: %+v", runB)
	}
	// A wakes up: its attempt is gone.
	if _, err := s.FinishJob(ctx, runA, nil, store.TokenUsage{}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("finish by the worker that lost its lease: %v", err)
	}
	if _, err := s.FinishJob(ctx, runB, nil, store.TokenUsage{}); err != nil {
		t.Fatal(err)
	}
}

func TestJobAbandonedOnLastAttemptIsDead(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	j, err := s.EnqueueJob(ctx, store.NewJob{Kind: store.JobImagePrompt, MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.StartJob(ctx, j, "A", -time.Second)
	if err != nil {
		t.Fatal(err)
	}
	dead, err := s.AbandonJob(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	if dead.Status != store.JobDead || dead.Attempts != 1 || !strings.Contains(dead.LastError, "worker A stopped") {
		t.Fatalf("abandoned: %+v", dead)
	}
	// The attempt number is taken, so nobody can start it any more.
	if _, err := s.StartJob(ctx, run, "B", time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("start after abandon: %v", err)
	}
}

func TestJobDeadLetterAndRequeue(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	j := enqueue(t, s, store.JobImagePrompt, "drink:d4")
	run, err := s.StartJob(ctx, j, "w", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RequeueJob(ctx, j.ID); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("requeue a running job: %v", err)
	}
	dead, err := s.DeadLetterJob(ctx, run, "InternalServerException: boom", store.TokenUsage{})
	if err != nil {
		t.Fatal(err)
	}
	if dead.Status != store.JobDead || dead.LastError != "InternalServerException: boom" {
		t.Fatalf("dead: %+v", dead)
	}
	if due, _ := s.DueJobs(ctx, time.Now().Add(time.Hour), 10); len(due) != 0 {
		t.Fatalf("dead job is due: %+v", due)
	}
	queued, err := s.RequeueJob(ctx, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	if queued.Status != store.JobQueued || queued.MaxAttempts != 1+store.DefaultJobAttempts || queued.LastError == "" {
		t.Fatalf("requeued: %+v", queued)
	}
	due, err := s.DueJobs(ctx, time.Now().Add(time.Second), 10)
	if err != nil || len(due) != 1 {
		t.Fatalf("requeued job not due: %v %+v", err, due)
	}
	run2, err := s.StartJob(ctx, due[0], "w", time.Minute)
	if err != nil || run2.Attempts != 2 {
		t.Fatalf("start requeued: %v %+v", err, run2)
	}
	if _, err := s.RequeueJob(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("requeue unknown: %v", err)
	}
}

func TestListAndCountJobs(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	var ids []string
	for i := range 7 {
		kind := store.JobImagePrompt
		if i%2 == 1 {
			kind = store.JobRecommendation
		}
		ids = append(ids, enqueue(t, s, kind, "s"+string(rune('0'+i))).ID)
		time.Sleep(2 * time.Millisecond) // distinct createdAt for the order
	}
	// Job 0 done, job 1 dead; the rest stay queued.
	for i, finish := range []func(store.Job) error{
		func(j store.Job) error { _, err := s.FinishJob(ctx, j, nil, store.TokenUsage{}); return err },
		func(j store.Job) error { _, err := s.DeadLetterJob(ctx, j, "x", store.TokenUsage{}); return err },
	} {
		j, err := s.JobByID(ctx, ids[i])
		if err != nil {
			t.Fatal(err)
		}
		run, err := s.StartJob(ctx, j, "w", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if err := finish(run); err != nil {
			t.Fatal(err)
		}
	}

	tests := []struct {
		name      string
		f         store.JobFilter
		wantTotal int64
		wantIDs   []string
	}{
		{"all newest first", store.JobFilter{}, 7, []string{ids[6], ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]}},
		{"page 2 of 3", store.JobFilter{Limit: 3, Offset: 3}, 7, []string{ids[3], ids[2], ids[1]}},
		{"kind", store.JobFilter{Kind: store.JobRecommendation}, 3, []string{ids[5], ids[3], ids[1]}},
		{"dead", store.JobFilter{Status: store.JobDead}, 1, []string{ids[1]}},
		{"kind and status", store.JobFilter{Kind: store.JobImagePrompt, Status: store.JobQueued}, 3, []string{ids[6], ids[4], ids[2]}},
		{"subject", store.JobFilter{Subject: "s4"}, 1, []string{ids[4]}},
		{"none", store.JobFilter{Status: store.JobRunning}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs, total, err := s.ListJobs(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if total != tt.wantTotal || len(jobs) != len(tt.wantIDs) {
				t.Fatalf("total %d, %d jobs; want %d, %d", total, len(jobs), tt.wantTotal, len(tt.wantIDs))
			}
			for i, j := range jobs {
				if j.ID != tt.wantIDs[i] {
					t.Fatalf("job %d is %s, want %s", i, j.ID, tt.wantIDs[i])
				}
			}
		})
	}

	counts, err := s.CountJobsByStatus(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{store.JobQueued: 5, store.JobRunning: 0, store.JobDone: 1, store.JobDead: 1}
	for k, v := range want {
		if counts[k] != v {
			t.Fatalf("counts %v, want %v", counts, want)
		}
	}
	counts, err = s.CountJobsByStatus(ctx, store.JobRecommendation)
	if err != nil {
		t.Fatal(err)
	}
	if counts[store.JobQueued] != 2 || counts[store.JobDead] != 1 || counts[store.JobDone] != 0 {
		t.Fatalf("recommendation counts %v", counts)
	}

	// Done jobs are swept once old enough; the dead one stays.
	if n, err := s.SweepJobs(ctx, time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("sweep of recent jobs: %d %v", n, err)
	}
	if n, err := s.SweepJobs(ctx, time.Now().Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	if _, err := s.JobByID(ctx, ids[1]); err != nil {
		t.Fatalf("dead job swept: %v", err)
	}
}
