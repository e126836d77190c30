package ai_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/store"
)

// instantModel answers at once, so a benchmark measures the queue.
type instantModel struct{}

func (instantModel) Name() string { return "instant" }

func (instantModel) Converse(ctx context.Context, req ai.ModelRequest) (ai.ModelResponse, error) {
	return ai.ModelResponse{Text: "A drink on pale stone.", Usage: ai.Usage{InputTokens: 1, OutputTokens: 1, TotalTokens: 2}}, nil
}

// BenchmarkQueueThroughput pushes b.N image-prompt jobs through one worker
// on the embedded database with a model that answers instantly: enqueue,
// claim, run, record. It reports jobs/s and the CPU time per job of the
// whole process (the embedded database included).
func BenchmarkQueueThroughput(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			r := newRig(b, false)
			r.model = instantModel{}
			for i := range b.N {
				id := fmt.Sprintf("d%06d", i)
				r.menu.drinks[id] = ai.Drink{ID: id, Name: "Drink " + id, Available: true}
			}
			b.ResetTimer()
			start, cpu := time.Now(), processCPU()
			ctx := context.Background()
			var last store.Job
			for i := range b.N {
				j, err := r.st.EnqueueJob(ctx, store.ImagePromptJob(fmt.Sprintf("d%06d", i)))
				if err != nil {
					b.Fatal(err)
				}
				last = j
			}
			for w := range workers {
				r.start(b, r.st, fmt.Sprintf("w%d", w))
			}
			if err := waitAllDone(r, b.N); err != nil {
				b.Fatalf("%v (last job %s)", err, last.ID)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "jobs/s")
			b.ReportMetric((processCPU()-cpu)*1000/float64(b.N), "cpu-ms/job")
		})
	}
}

// waitAllDone waits until n prompts were saved (in memory, cheap to
// watch), then until the database says n jobs are done.
func waitAllDone(r *rig, n int) error {
	deadline := time.Now().Add(5 * time.Minute)
	for {
		r.sink.mu.Lock()
		saved := len(r.sink.saved)
		r.sink.mu.Unlock()
		if saved == n {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d prompts saved after 5 minutes", saved, n)
		}
		time.Sleep(2 * time.Millisecond)
	}
	for {
		counts, err := r.st.CountJobsByStatus(context.Background(), "")
		if err != nil {
			return err
		}
		if counts[store.JobDone] == int64(n) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("job counts %v after 5 minutes", counts)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
