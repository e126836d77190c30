package ai

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/store"
)

// Generated pictures (docs/MENU.md, "Pictures"): once a drink's image
// prompt is written, a drink_image job has the image model picture it,
// and the picture is stored as the host's uploads are. A photo the host
// uploaded always wins: the job leaves such a drink alone, and the store
// refuses a generated picture over an upload that lands meanwhile. A job
// that fails for good leaves the drink with barhub's drawing.

// Default size and quality of a generated picture: 4:3, as the menu
// frames a photo.
const (
	DefaultImageWidth   = 1024
	DefaultImageHeight  = 768
	DefaultImageQuality = "standard"
)

// ImageModelName is the image model's id, or "" when pictures are drawn.
func (w *Bartender) ImageModelName() string {
	if w.d.Images == nil || w.d.Pictures == nil {
		return ""
	}
	return w.d.Images.Name()
}

// queuePicture queues the drink_image job of a drink whose prompt was
// just written, when there is an image model.
func (w *Bartender) queuePicture(ctx context.Context, drinkID string) {
	if w.ImageModelName() == "" || w.d.Jobs == nil {
		return
	}
	j, err := w.d.Jobs.EnqueueJob(ctx, store.DrinkImageJob(drinkID))
	if err != nil {
		w.log.WarnContext(ctx, "queue the picture of a drink", "drink", drinkID, "err", err)
		return
	}
	if w.d.JobQueued != nil {
		w.d.JobQueued(j)
	}
}

// drinkImageJobs pictures drinks.
type drinkImageJobs struct{ w *Bartender }

func (h drinkImageJobs) Handle(ctx context.Context, j jobs.Job) (jobs.Result, error) {
	out, err := h.w.drinkImage(ctx, j)
	return out.jobResult(), err
}

func (w *Bartender) drinkImage(ctx context.Context, j store.Job) (outcome, error) {
	id := j.Payload[store.PayloadDrinkID]
	if id == "" {
		return outcome{}, permanentError{errors.New("the job names no drink")}
	}
	if w.ImageModelName() == "" {
		return outcome{}, permanentError{errors.New("no image model is configured")}
	}
	skipped := func(why string) (outcome, error) {
		return outcome{result: map[string]string{"drinkId": id, "skipped": why}}, nil
	}
	uploaded, prompt, err := w.d.Pictures.PictureOf(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return skipped("the drink was deleted")
	case err != nil:
		return outcome{}, fmt.Errorf("load drink %s: %w", id, err)
	case uploaded:
		return skipped("the host uploaded a photo")
	}
	if prompt == "" {
		// The prompt job had not run (or was cleared): the local
		// template's prompt still makes a fitting photograph.
		d, err := w.d.Menu.Drink(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return skipped("the drink was deleted")
		}
		if err != nil {
			return outcome{}, fmt.Errorf("load drink %s: %w", id, err)
		}
		p, err := LocalImagePrompt(d)
		if err != nil {
			return outcome{}, err
		}
		prompt = p.Text
	}
	img, err := w.d.Images.GenerateImage(ctx, ImageRequest{
		Prompt:  prompt,
		Width:   w.cfg.ImageWidth,
		Height:  w.cfg.ImageHeight,
		Quality: w.cfg.ImageQuality,
		Seed:    seedOf(j.ID),
	})
	if err != nil {
		return outcome{}, fmt.Errorf("picture of drink %s: %w", id, err)
	}
	url, err := w.d.Pictures.SaveGenerated(ctx, id, img)
	switch {
	case errors.Is(err, store.ErrUploaded):
		return skipped("the host uploaded a photo")
	case errors.Is(err, store.ErrNotFound):
		return skipped("the drink was deleted")
	case err != nil:
		return outcome{}, fmt.Errorf("store the picture of drink %s: %w", id, err)
	}
	return outcome{result: map[string]string{"drinkId": id, "imageUrl": url, "model": w.d.Images.Name()}}, nil
}

// seedOf gives each job its own seed: its retries picture the same, and
// the host's "new picture" is a new take even on the same prompt (Nova
// Canvas takes 0 to 2,147,483,646).
func seedOf(id string) int64 {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int64(h.Sum32() % 2147483647)
}
