package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// The job queue is durable work for the AI worker: one document per job,
// moved through its states by whichever worker instance claims it.
//
//	queued ──start──▶ running ──finish──▶ done
//	  ▲                 │
//	  └──retry later────┤ (attempts < maxAttempts)
//	                    └──dead-letter──▶ dead ──requeue (admin)──▶ queued
//
// findAndModify is not atomic on embedded FerretDB (it reads, then writes
// by _id), so no state change relies on a conditional update. Each one is
// guarded by a claim instead — an insert with a unique _id, atomic on
// every backend:
//
//   - starting attempt n claims "job/<id>/<n>": of the workers that polled
//     the same job, one gets it;
//   - ending attempt n (done, retry later, dead) claims "job/<id>/<n>/end":
//     it happens once;
//   - taking over a running job whose lease has passed (its worker died)
//     ends the lost attempt first, by the same claim, so the worker that
//     lost its lease can no longer write, and then starts the next one.
//
// The winner then writes by _id alone, which is also the only filter the
// embedded database answers without scanning the collection.

// Job kinds.
const (
	JobImagePrompt    = "image_prompt"
	JobDrinkImage     = "drink_image"
	JobRecommendation = "recommendation"
	JobImport         = "import"
)

// Job statuses.
const (
	JobQueued  = "queued"
	JobRunning = "running"
	JobDone    = "done"
	JobDead    = "dead"
)

// DefaultJobAttempts is how many attempts a job gets before it is
// dead-lettered, and how many more an admin retry grants.
const DefaultJobAttempts = 5

// jobClaimTTL keeps an attempt's claim far longer than a poll takes, so
// a worker acting on a candidate it read a moment ago can never start an
// attempt that was already started. It is also how long a job waits when
// a worker died between claiming an attempt and recording it (a window of
// one database write); the claim is then taken over.
const jobClaimTTL = 15 * time.Minute

const collJobs = "jobs"

// TokenUsage counts model tokens, summed over a job's attempts: a failed
// attempt is paid for too.
type TokenUsage struct {
	InputTokens  int64 `bson:"inputTokens" json:"inputTokens"`
	OutputTokens int64 `bson:"outputTokens" json:"outputTokens"`
	TotalTokens  int64 `bson:"totalTokens" json:"totalTokens"`
}

// Job is one unit of background work.
type Job struct {
	ID   string `bson:"_id" json:"id"`
	Kind string `bson:"kind" json:"kind"`
	// Subject names what the job is about ("drink:<id>",
	// "recommendation:<id>"), so the admin views can find a drink's jobs.
	Subject       string            `bson:"subject,omitempty" json:"subject,omitempty"`
	Payload       map[string]string `bson:"payload" json:"payload"`
	Status        string            `bson:"status" json:"status"`
	Attempts      int               `bson:"attempts" json:"attempts"`
	MaxAttempts   int               `bson:"maxAttempts" json:"maxAttempts"`
	NextAttemptAt time.Time         `bson:"nextAttemptAt" json:"nextAttemptAt"`
	LeaseUntil    *time.Time        `bson:"leaseUntil,omitempty" json:"leaseUntil,omitempty"`
	Worker        string            `bson:"worker,omitempty" json:"worker,omitempty"`
	LastError     string            `bson:"lastError,omitempty" json:"lastError,omitempty"`
	Usage         TokenUsage        `bson:"usage" json:"usage"`
	Result        map[string]string `bson:"result,omitempty" json:"result,omitempty"`
	CreatedAt     time.Time         `bson:"createdAt" json:"createdAt"`
	UpdatedAt     time.Time         `bson:"updatedAt" json:"updatedAt"`
	FinishedAt    *time.Time        `bson:"finishedAt,omitempty" json:"finishedAt,omitempty"`
}

// Payload keys of the job kinds.
const (
	PayloadDrinkID          = "drinkId"
	PayloadRecommendationID = "recommendationId"
	PayloadGuestID          = "guestId"
)

// ImagePromptJob is the job that writes a photography prompt for a drink.
func ImagePromptJob(drinkID string) NewJob {
	return NewJob{Kind: JobImagePrompt, Subject: "drink:" + drinkID, Payload: map[string]string{PayloadDrinkID: drinkID}}
}

// DrinkImageJob is the job that has an image model picture a drink from
// its image prompt.
func DrinkImageJob(drinkID string) NewJob {
	return NewJob{Kind: JobDrinkImage, Subject: "drink:" + drinkID, Payload: map[string]string{PayloadDrinkID: drinkID}}
}

// RecommendationJob is the job that answers a guest's recommendation request.
func RecommendationJob(recommendationID, guestID string) NewJob {
	return NewJob{Kind: JobRecommendation, Subject: "recommendation:" + recommendationID, Payload: map[string]string{
		PayloadRecommendationID: recommendationID,
		PayloadGuestID:          guestID,
	}}
}

// NewJob describes a job to enqueue.
type NewJob struct {
	Kind    string
	Subject string
	Payload map[string]string
	// MaxAttempts defaults to DefaultJobAttempts.
	MaxAttempts int
}

// jobIndexes back the worker's poll (status + nextAttemptAt, status +
// leaseUntil) and the admin list (kind/status by age, subject).
func jobIndexes() []mongo.IndexModel {
	return []mongo.IndexModel{
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "nextAttemptAt", Value: 1}}, Options: options.Index().SetName("status_nextAttemptAt")},
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "leaseUntil", Value: 1}}, Options: options.Index().SetName("status_leaseUntil")},
		{Keys: bson.D{{Key: "kind", Value: 1}, {Key: "status", Value: 1}, {Key: "createdAt", Value: -1}}, Options: options.Index().SetName("kind_status_createdAt")},
		{Keys: bson.D{{Key: "subject", Value: 1}, {Key: "createdAt", Value: -1}}, Options: options.Index().SetName("subject_createdAt")},
	}
}

func jobNow() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// EnqueueJob stores a new queued job, due at once.
func (s *Store) EnqueueJob(ctx context.Context, nj NewJob) (Job, error) {
	if nj.Kind == "" {
		return Job{}, errors.New("enqueue job: empty kind")
	}
	if nj.MaxAttempts <= 0 {
		nj.MaxAttempts = DefaultJobAttempts
	}
	if nj.Payload == nil {
		nj.Payload = map[string]string{}
	}
	t := jobNow()
	j := Job{
		ID:            NewID(),
		Kind:          nj.Kind,
		Subject:       nj.Subject,
		Payload:       nj.Payload,
		Status:        JobQueued,
		MaxAttempts:   nj.MaxAttempts,
		NextAttemptAt: t,
		CreatedAt:     t,
		UpdatedAt:     t,
	}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collJobs).InsertOne(ctx, j); return err }); err != nil {
		return Job{}, fmt.Errorf("enqueue %s job: %w", nj.Kind, err)
	}
	return j, nil
}

// JobByID loads one job.
func (s *Store) JobByID(ctx context.Context, id string) (Job, error) {
	return findByID[Job](ctx, s, collJobs, "job", id)
}

// DueJobs returns up to limit jobs a worker may start now, oldest due
// first: queued jobs whose time has come, and running jobs whose lease has
// expired (their worker is gone).
func (s *Store) DueJobs(ctx context.Context, at time.Time, limit int) ([]Job, error) {
	filter := bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: "status", Value: JobQueued}, {Key: "nextAttemptAt", Value: bson.D{{Key: "$lte", Value: at}}}},
		bson.D{{Key: "status", Value: JobRunning}, {Key: "leaseUntil", Value: bson.D{{Key: "$lte", Value: at}}}},
	}}}
	opts := options.Find().SetSort(bson.D{{Key: "nextAttemptAt", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit))
	cur, err := s.coll(collJobs).Find(ctx, filter, opts)
	if err != nil {
		return nil, fmt.Errorf("find due jobs: %w", err)
	}
	var jobs []Job
	if err := cur.All(ctx, &jobs); err != nil {
		return nil, fmt.Errorf("find due jobs: %w", err)
	}
	return jobs, nil
}

// claimStart makes the caller the only one to start attempt n of j.
func (s *Store) claimStart(ctx context.Context, j Job, n int) error {
	return s.Claim(ctx, fmt.Sprintf("job/%s/%d", j.ID, n), jobClaimTTL)
}

// claimEnd makes the caller the only one to end j's current attempt.
func (s *Store) claimEnd(ctx context.Context, j Job) error {
	return s.Claim(ctx, fmt.Sprintf("job/%s/%d/end", j.ID, j.Attempts), jobClaimTTL)
}

// write applies set (and inc) to job id and returns it as written.
func (s *Store) write(ctx context.Context, id string, set, inc bson.D) (Job, error) {
	set = append(set, bson.E{Key: "updatedAt", Value: jobNow()})
	update := bson.D{{Key: "$set", Value: set}}
	if len(inc) > 0 {
		update = append(update, bson.E{Key: "$inc", Value: inc})
	}
	after := options.FindOneAndUpdate().SetReturnDocument(options.After)
	var out Job
	err := s.coll(collJobs).FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: id}}, update, after).Decode(&out)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return Job{}, fmt.Errorf("update job %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Job{}, fmt.Errorf("update job %s: %w", id, err)
	}
	return out, nil
}

// StartJob makes worker the owner of j's next attempt until the lease
// passes. Of several workers starting the same job, one gets the job back
// as running and the others get ErrConflict. Taking over a running job
// whose lease expired records the lost attempt as its last error.
func (s *Store) StartJob(ctx context.Context, j Job, worker string, lease time.Duration) (Job, error) {
	attempt := j.Attempts + 1
	set := bson.D{
		{Key: "status", Value: JobRunning},
		{Key: "attempts", Value: attempt},
		{Key: "leaseUntil", Value: jobNow().Add(lease)},
		{Key: "worker", Value: worker},
	}
	if j.Status == JobRunning {
		if err := s.claimEnd(ctx, j); err != nil {
			return Job{}, fmt.Errorf("take over job %s: %w", j.ID, err)
		}
		set = append(set, bson.E{Key: "lastError", Value: abandonedError(j)})
	}
	if err := s.claimStart(ctx, j, attempt); err != nil {
		return Job{}, fmt.Errorf("start job %s attempt %d: %w", j.ID, attempt, err)
	}
	started, err := s.write(ctx, j.ID, set, nil)
	if err != nil {
		return Job{}, fmt.Errorf("start job: %w", err)
	}
	return started, nil
}

func abandonedError(j Job) string {
	return fmt.Sprintf("attempt %d was abandoned: worker %s stopped before its lease ended", j.Attempts, j.Worker)
}

// AbandonJob dead-letters a running job whose lease expired on its last
// attempt, instead of starting an attempt it is no longer allowed. It
// ends the lost attempt, so it cannot race a worker taking the job over.
func (s *Store) AbandonJob(ctx context.Context, j Job) (Job, error) {
	if err := s.claimEnd(ctx, j); err != nil {
		return Job{}, fmt.Errorf("abandon job %s: %w", j.ID, err)
	}
	dead, err := s.write(ctx, j.ID, bson.D{
		{Key: "status", Value: JobDead},
		{Key: "lastError", Value: abandonedError(j)},
		{Key: "finishedAt", Value: jobNow()},
	}, nil)
	if err != nil {
		return Job{}, fmt.Errorf("abandon job: %w", err)
	}
	return dead, nil
}

// end records how the running attempt j ended. ErrConflict means the
// attempt was already ended: its lease passed and another worker took the
// job over.
func (s *Store) end(ctx context.Context, j Job, set bson.D, usage TokenUsage) (Job, error) {
	if err := s.claimEnd(ctx, j); err != nil {
		return Job{}, fmt.Errorf("end attempt %d of job %s: %w", j.Attempts, j.ID, err)
	}
	return s.write(ctx, j.ID, set, usageInc(usage))
}

func usageInc(u TokenUsage) bson.D {
	return bson.D{
		{Key: "usage.inputTokens", Value: u.InputTokens},
		{Key: "usage.outputTokens", Value: u.OutputTokens},
		{Key: "usage.totalTokens", Value: u.TotalTokens},
	}
}

// FinishJob marks the running attempt j (as StartJob returned it) done.
// ErrConflict means the lease was lost and another worker owns the job.
func (s *Store) FinishJob(ctx context.Context, j Job, result map[string]string, usage TokenUsage) (Job, error) {
	set := bson.D{{Key: "status", Value: JobDone}, {Key: "finishedAt", Value: jobNow()}}
	if result != nil {
		set = append(set, bson.E{Key: "result", Value: result})
	}
	done, err := s.end(ctx, j, set, usage)
	if err != nil {
		return Job{}, fmt.Errorf("finish job: %w", err)
	}
	return done, nil
}

// RetryJobLater puts the failed attempt j back in the queue, due at at.
func (s *Store) RetryJobLater(ctx context.Context, j Job, lastError string, at time.Time, usage TokenUsage) (Job, error) {
	queued, err := s.end(ctx, j, bson.D{
		{Key: "status", Value: JobQueued},
		{Key: "nextAttemptAt", Value: at.UTC()},
		{Key: "lastError", Value: lastError},
	}, usage)
	if err != nil {
		return Job{}, fmt.Errorf("retry job later: %w", err)
	}
	return queued, nil
}

// DeadLetterJob gives up on j, keeping its last error for the admin.
func (s *Store) DeadLetterJob(ctx context.Context, j Job, lastError string, usage TokenUsage) (Job, error) {
	dead, err := s.end(ctx, j, bson.D{
		{Key: "status", Value: JobDead},
		{Key: "lastError", Value: lastError},
		{Key: "finishedAt", Value: jobNow()},
	}, usage)
	if err != nil {
		return Job{}, fmt.Errorf("dead-letter job: %w", err)
	}
	return dead, nil
}

// RequeueJob gives a dead job DefaultJobAttempts more attempts, due now.
// Only dead jobs can be requeued (ErrConflict otherwise); its last error
// stays until the next attempt replaces it.
func (s *Store) RequeueJob(ctx context.Context, id string) (Job, error) {
	j, err := s.JobByID(ctx, id)
	if err != nil {
		return Job{}, err
	}
	if j.Status != JobDead {
		return Job{}, fmt.Errorf("requeue job %s: it is %s, not dead: %w", id, j.Status, ErrConflict)
	}
	// A dead job is only ever requeued once per number of attempts made.
	if err := s.Claim(ctx, fmt.Sprintf("job/%s/%d/requeue", j.ID, j.Attempts), jobClaimTTL); err != nil {
		return Job{}, fmt.Errorf("requeue job %s: %w", id, err)
	}
	queued, err := s.write(ctx, j.ID, bson.D{
		{Key: "status", Value: JobQueued},
		{Key: "maxAttempts", Value: j.Attempts + DefaultJobAttempts},
		{Key: "nextAttemptAt", Value: jobNow()},
	}, nil)
	if err != nil {
		return Job{}, fmt.Errorf("requeue job: %w", err)
	}
	return queued, nil
}

// JobFilter selects jobs for the admin list; empty fields match all.
type JobFilter struct {
	Status  string
	Kind    string
	Subject string
	Limit   int
	Offset  int
}

func (f JobFilter) bson() bson.D {
	filter := bson.D{}
	if f.Status != "" {
		filter = append(filter, bson.E{Key: "status", Value: f.Status})
	}
	if f.Kind != "" {
		filter = append(filter, bson.E{Key: "kind", Value: f.Kind})
	}
	if f.Subject != "" {
		filter = append(filter, bson.E{Key: "subject", Value: f.Subject})
	}
	return filter
}

// ListJobs returns one page of the jobs matching f, newest first, and how
// many match in all.
func (s *Store) ListJobs(ctx context.Context, f JobFilter) ([]Job, int64, error) {
	filter := f.bson()
	total, err := s.coll(collJobs).CountDocuments(ctx, filter)
	if err != nil {
		return nil, 0, fmt.Errorf("count jobs: %w", err)
	}
	opts := options.Find().SetSort(bson.D{{Key: "createdAt", Value: -1}, {Key: "_id", Value: -1}}).SetSkip(int64(f.Offset))
	if f.Limit > 0 {
		opts.SetLimit(int64(f.Limit))
	}
	cur, err := s.coll(collJobs).Find(ctx, filter, opts)
	if err != nil {
		return nil, 0, fmt.Errorf("list jobs: %w", err)
	}
	jobs := []Job{}
	if err := cur.All(ctx, &jobs); err != nil {
		return nil, 0, fmt.Errorf("list jobs: %w", err)
	}
	return jobs, total, nil
}

// CountJobsByStatus counts the jobs of kind (all kinds when empty) per
// status. One $group accumulator: the embedded database returns zeros for
// any second one.
func (s *Store) CountJobsByStatus(ctx context.Context, kind string) (map[string]int64, error) {
	pipeline := mongo.Pipeline{}
	if kind != "" {
		pipeline = append(pipeline, bson.D{{Key: "$match", Value: bson.D{{Key: "kind", Value: kind}}}})
	}
	pipeline = append(pipeline, bson.D{{Key: "$group", Value: bson.D{
		{Key: "_id", Value: "$status"},
		{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}},
	}}})
	cur, err := s.coll(collJobs).Aggregate(ctx, pipeline)
	if err != nil {
		return nil, fmt.Errorf("count jobs by status: %w", err)
	}
	var rows []struct {
		Status string `bson:"_id"`
		N      int64  `bson:"n"`
	}
	if err := cur.All(ctx, &rows); err != nil {
		return nil, fmt.Errorf("count jobs by status: %w", err)
	}
	counts := map[string]int64{JobQueued: 0, JobRunning: 0, JobDone: 0, JobDead: 0}
	for _, r := range rows {
		counts[r.Status] = r.N
	}
	return counts, nil
}

// SweepJobs deletes jobs that finished successfully before cutoff. Dead
// jobs stay until an admin deals with them.
func (s *Store) SweepJobs(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.coll(collJobs).DeleteMany(ctx, bson.D{
		{Key: "status", Value: JobDone},
		{Key: "finishedAt", Value: bson.D{{Key: "$lt", Value: cutoff}}},
	})
	if err != nil {
		return 0, fmt.Errorf("sweep jobs: %w", err)
	}
	return res.DeletedCount, nil
}
