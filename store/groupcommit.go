package store

import (
	"context"
	"sync"
	"time"
)

// groupCommit batches writes on the embedded database, whose one writer
// commits (and, with --db-sync full, fsyncs) each command on its own: the
// items that arrive while a batch is being written go in the next batch
// together, one command for all of them (an insert of many documents is
// one commit). Each caller still returns only once its own item is
// written, with its own result, so every reader sees what it would have
// seen with one write per item. The zero value is ready; every caller of
// one groupCommit passes the same write.
type groupCommit[In, Out any] struct {
	mu      sync.Mutex
	queue   []*queuedItem[In, Out]
	leading bool // a caller is writing a batch
}

type queuedItem[In, Out any] struct {
	item In
	done chan groupResult[Out] // one at a time: "lead", then the result
}

type groupResult[Out any] struct {
	lead bool // write the queue's next batch, this item in it
	out  Out
	err  error
}

// groupTimeout bounds a batch's write, which is not cancelled with the
// request that happens to write it.
const groupTimeout = 30 * time.Second

// maxGroup is the most items a batch takes: FerretDB v1 inserts up to 100
// documents in one transaction.
const maxGroup = 100

// do queues item and returns its result once it is written. The caller that
// finds nobody writing a batch writes the queue's; when it is done, the
// oldest item queued meanwhile writes the next. write returns one result
// per item, or an error for the whole batch.
func (g *groupCommit[In, Out]) do(ctx context.Context, item In, write func(context.Context, []In) ([]Out, error)) (Out, error) {
	q := &queuedItem[In, Out]{item: item, done: make(chan groupResult[Out], 1)}
	g.mu.Lock()
	g.queue = append(g.queue, q)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	for {
		if lead {
			g.writeBatch(ctx, write)
		}
		res := <-q.done
		if !res.lead {
			return res.out, res.err
		}
		lead = true
	}
}

// writeBatch writes the queued items and hands the next batch on.
func (g *groupCommit[In, Out]) writeBatch(ctx context.Context, write func(context.Context, []In) ([]Out, error)) {
	g.mu.Lock()
	n := min(len(g.queue), maxGroup)
	batch := g.queue[:n:n]
	g.queue = g.queue[n:]
	g.mu.Unlock()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), groupTimeout)
	defer cancel()
	items := make([]In, len(batch))
	for i, q := range batch {
		items[i] = q.item
	}
	outs, err := write(wctx, items)
	for i, q := range batch {
		res := groupResult[Out]{err: err}
		if err == nil {
			res.out = outs[i]
		}
		q.done <- res
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		g.leading = false
		return
	}
	g.queue[0].done <- groupResult[Out]{lead: true}
}
