package ai_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strings"
	"sync"
	"testing"

	"github.com/barhub/barhub/ai"
	"github.com/barhub/barhub/ai/bedrock"
	"github.com/barhub/barhub/ai/bedrocktest"
	"github.com/barhub/barhub/jobs/jobstest"
	"github.com/barhub/barhub/store"
)

// memPictures keeps drinks' pictures in memory: the prompts are the
// rig's sink's, uploads are marked by the test.
type memPictures struct {
	sink     *memSink
	mu       sync.Mutex
	uploaded map[string]bool
	saved    map[string][][]byte
}

func (p *memPictures) PictureOf(ctx context.Context, id string) (bool, string, error) {
	if id == "gone" {
		return false, "", fmt.Errorf("drink %s: %w", id, store.ErrNotFound)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	prompt := ""
	if ps := p.sink.get(id); len(ps) > 0 {
		prompt = ps[len(ps)-1].Text
	}
	return p.uploaded[id], prompt, nil
}

func (p *memPictures) SaveGenerated(ctx context.Context, id string, img []byte) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.uploaded[id] {
		return "", store.ErrUploaded
	}
	p.saved[id] = append(p.saved[id], img)
	return fmt.Sprintf("/images/%s-%d.png", id, len(p.saved[id])), nil
}

func (p *memPictures) get(id string) [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.saved[id]
}

func withImages(t *testing.T, r *rig, cfg ai.Config) {
	t.Helper()
	c, err := bedrock.NewImage(context.Background(), bedrock.Config{
		Region: "eu-north-1", Endpoint: r.srv.URL, Credentials: bedrocktest.Credentials(),
	})
	if err != nil {
		t.Fatal(err)
	}
	r.images = c
	r.pics = &memPictures{sink: r.sink, uploaded: map[string]bool{}, saved: map[string][][]byte{}}
	r.cfg = &cfg
}

// The prompt job chains the picture's: Nova Canvas through InvokeModel,
// with the prompt just written, the size and quality configured.
func TestPromptThenPicture(t *testing.T) {
	r := newRig(t, true)
	withImages(t, r, ai.Config{ImageWidth: 640, ImageHeight: 480, ImageQuality: "premium"})
	r.srv.Script(bedrocktest.Text("# Negroni\n\nA Negroni on pale oak, soft side light.\n\nLet me know if you want changes!"))
	r.start(t, r.st, "w1")
	j := r.enqueue(t, store.ImagePromptJob("negroni"))
	jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	jobs, _, err := r.st.ListJobs(context.Background(), store.JobFilter{Kind: store.JobDrinkImage, Limit: 5})
	if err != nil || len(jobs) != 1 {
		t.Fatalf("picture jobs %+v, %v", jobs, err)
	}
	done := jobstest.WaitJob(t, r.st, jobs[0].ID, store.JobDone)
	if done.Result["imageUrl"] != "/images/negroni-1.png" || done.Result["model"] != bedrock.DefaultImageModel {
		t.Errorf("result %v", done.Result)
	}
	inv := r.srv.Invocations()
	if len(inv) != 1 {
		t.Fatalf("%d invocations", len(inv))
	}
	b := inv[0].Body
	g := b.ImageGenerationConfig
	if inv[0].ModelID != "amazon.nova-canvas-v1:0" || b.TaskType != "TEXT_IMAGE" || b.TextToImageParams.Text != "A Negroni on pale oak, soft side light." ||
		g.Width != 640 || g.Height != 480 || g.Quality != "premium" || g.NumberOfImages != 1 {
		t.Errorf("invocation %s", inv[0].Raw)
	}
	saved := r.pics.get("negroni")
	if len(saved) != 1 {
		t.Fatalf("saved %d pictures", len(saved))
	}
	img, err := png.Decode(bytes.NewReader(saved[0]))
	if err != nil || img.Bounds().Dx() != 640 || img.Bounds().Dy() != 480 {
		t.Errorf("saved picture: %v, %v", err, img)
	}
}

func TestPictureJob(t *testing.T) {
	t.Run("retried after throttling", func(t *testing.T) {
		r := newRig(t, true)
		withImages(t, r, ai.Config{})
		r.srv.ScriptImages(bedrocktest.Throttle(), bedrocktest.ServerError())
		r.start(t, r.st, "w1")
		j := r.enqueue(t, store.DrinkImageJob("moscow-mule"))
		done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
		inv := r.srv.Invocations()
		// No prompt written yet: the local template's.
		if done.Attempts != 3 || len(inv) != 3 || !strings.Contains(inv[2].Body.TextToImageParams.Text, "Moscow Mule") ||
			inv[2].Body.ImageGenerationConfig.Width != ai.DefaultImageWidth || inv[2].Body.ImageGenerationConfig.Quality != "standard" {
			t.Errorf("job %+v after %d calls: %s", done, len(inv), inv[len(inv)-1].Raw)
		}
		if len(r.pics.get("moscow-mule")) != 1 {
			t.Error("no picture saved")
		}
		// A job's retries picture with the same seed.
		if inv[0].Body.ImageGenerationConfig.Seed != inv[2].Body.ImageGenerationConfig.Seed {
			t.Error("seeds differ")
		}
	})
	t.Run("an upload is never replaced", func(t *testing.T) {
		r := newRig(t, true)
		withImages(t, r, ai.Config{})
		r.pics.uploaded["moscow-mule"] = true
		r.start(t, r.st, "w1")
		j := r.enqueue(t, store.DrinkImageJob("moscow-mule"))
		done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
		if done.Result["skipped"] != "the host uploaded a photo" || len(r.srv.Invocations()) != 0 || len(r.pics.get("moscow-mule")) != 0 {
			t.Errorf("job %+v, %d calls", done, len(r.srv.Invocations()))
		}
	})
	t.Run("a deleted drink", func(t *testing.T) {
		r := newRig(t, true)
		withImages(t, r, ai.Config{})
		r.start(t, r.st, "w1")
		j := r.enqueue(t, store.DrinkImageJob("gone"))
		if done := jobstest.WaitJob(t, r.st, j.ID, store.JobDone); done.Result["skipped"] != "the drink was deleted" {
			t.Errorf("job %+v", done)
		}
	})
	t.Run("a refusal is final", func(t *testing.T) {
		r := newRig(t, true)
		withImages(t, r, ai.Config{})
		r.srv.ScriptImages(bedrocktest.AccessDenied())
		r.start(t, r.st, "w1")
		j := r.enqueue(t, store.DrinkImageJob("moscow-mule"))
		dead := jobstest.WaitJob(t, r.st, j.ID, store.JobDead)
		if dead.Attempts != 1 || !strings.Contains(dead.LastError, "AccessDeniedException") || len(r.pics.get("moscow-mule")) != 0 {
			t.Errorf("job %+v", dead)
		}
	})
	t.Run("a size Nova Canvas refuses", func(t *testing.T) {
		r := newRig(t, true)
		withImages(t, r, ai.Config{ImageWidth: 1000, ImageHeight: 750})
		r.start(t, r.st, "w1")
		j := r.enqueue(t, store.DrinkImageJob("moscow-mule"))
		dead := jobstest.WaitJob(t, r.st, j.ID, store.JobDead)
		if dead.Attempts != 1 || !strings.Contains(dead.LastError, "ValidationException") {
			t.Errorf("job %+v", dead)
		}
	})
	t.Run("without an image model no picture job follows a prompt", func(t *testing.T) {
		r := newRig(t, true)
		r.start(t, r.st, "w1")
		j := r.enqueue(t, store.ImagePromptJob("negroni"))
		jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
		if jobs, _, _ := r.st.ListJobs(context.Background(), store.JobFilter{Kind: store.JobDrinkImage, Limit: 5}); len(jobs) != 0 {
			t.Errorf("picture jobs %+v", jobs)
		}
	})
}

// The host's "new picture" is a new take: another job, another seed.
func TestNewPictureIsANewTake(t *testing.T) {
	r := newRig(t, true)
	withImages(t, r, ai.Config{})
	r.start(t, r.st, "w1")
	for range 2 {
		j := r.enqueue(t, store.DrinkImageJob("negroni"))
		jobstest.WaitJob(t, r.st, j.ID, store.JobDone)
	}
	inv := r.srv.Invocations()
	if len(inv) != 2 || inv[0].Body.ImageGenerationConfig.Seed == inv[1].Body.ImageGenerationConfig.Seed || len(r.pics.get("negroni")) != 2 {
		t.Errorf("%d calls, seeds %v", len(inv), inv)
	}
}
