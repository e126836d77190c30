package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/cmd/internal/database"
	"github.com/barhub/barhub/cmd/internal/livehub"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/store"
)

const adminUsage = `usage:
  barhub admin add --first NAME --last NAME [--data DIR | --mongodb-uri URI]
  barhub admin list [--data DIR | --mongodb-uri URI]
  barhub admin code ID [--data DIR | --mongodb-uri URI]

add makes a new admin and prints their login; list shows every admin's id;
code gives admin ID a new code and ends every session signed in with the
old one. With REDIS_URL set, running instances close those sessions at
once; otherwise within their session cache's 10 seconds.`

// runAdmin manages admins on the database a server uses, for a host who
// lost the first admin's code (printed once) or needs a second host.
func runAdmin(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(adminUsage)
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "add":
		return adminAdd(ctx, rest, getenv, stdout)
	case "list":
		return adminList(ctx, rest, getenv, stdout)
	case "code":
		return adminCode(ctx, rest, getenv, stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(stdout, adminUsage)
		return nil
	default:
		return fmt.Errorf("unknown admin command %q\n%s", sub, adminUsage)
	}
}

func adminAdd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("admin add", flag.ContinueOnError)
	fs.SetOutput(stdout)
	first := fs.String("first", "", "first `name` of the new admin")
	last := fs.String("last", "", "last `name` of the new admin (they sign in with it)")
	cfg, finish := serveFlags(fs, getenv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := finish(); err != nil {
		return err
	}
	role := guest.RoleAdmin
	g, err := guest.Patch{FirstName: first, LastName: last, Role: &role}.Apply(guest.Guest{}, "", time.Now())
	if err != nil {
		var fe *guest.FieldError
		if errors.As(err, &fe) {
			return fmt.Errorf("--%s: %s", strings.TrimSuffix(fe.Field, "Name"), fe.Message)
		}
		return err
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close(context.Background())
	if err := st.InsertGuest(ctx, &g); err != nil {
		return fmt.Errorf("add admin: %w", err)
	}
	fmt.Fprintf(stdout, "admin added: id=%s\nadmin login: code=%s lastName=%s\n", g.ID, g.Code, g.LastName)
	return nil
}

func adminList(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, err := parseServe("admin list", args, getenv, stdout)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close(context.Background())
	all, err := st.AllGuests(ctx)
	if err != nil {
		return err
	}
	admins := slices.DeleteFunc(all, func(g guest.Guest) bool { return g.Role != guest.RoleAdmin })
	slices.SortFunc(admins, func(a, b guest.Guest) int { return cmp.Compare(a.CreatedAt.UnixNano(), b.CreatedAt.UnixNano()) })
	// Codes are not listed: they are logins, and "admin code" makes a new one.
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tADDED\tLAST SIGN-IN")
	for _, g := range admins {
		login := "never"
		if g.LastLogin != nil && !g.LastLogin.IsZero() {
			login = g.LastLogin.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", g.ID, g.Name(), g.CreatedAt.UTC().Format(time.RFC3339), login)
	}
	return tw.Flush()
}

func adminCode(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	// The id may come before or after the flags.
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("admin code", flag.ContinueOnError)
	fs.SetOutput(stdout)
	cfg, finish := serveFlags(fs, getenv)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if id == "" && fs.NArg() == 1 {
		id = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if id == "" {
		return errors.New("admin code: which admin? run \"barhub admin list\" for the ids\n" + adminUsage)
	}
	if err := finish(); err != nil {
		return err
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close(context.Background())
	g, err := st.GuestByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no guest has id %q; run \"barhub admin list\" for the admins' ids", id)
	}
	if err != nil {
		return err
	}
	if g.Role != guest.RoleAdmin {
		return fmt.Errorf("%s (%s) is a %s, not an admin; the admin page gives them a new code", g.Name(), id, g.Role)
	}
	// A new code moves the session version on: every token signed with
	// the old code stops working.
	code, err := st.RegenerateCode(ctx, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "new code for %s (%s)\nadmin login: code=%s lastName=%s\n", g.Name(), id, code, g.LastName)
	if cfg.RedisURL == "" {
		fmt.Fprintln(stdout, "sessions signed in with the old code end within 10 seconds on a running server")
		return nil
	}
	if err := announceEndedSessions(ctx, cfg, id); err != nil {
		fmt.Fprintf(stdout, "sessions signed in with the old code end within 10 seconds (could not tell the instances at once: %v)\n", err)
		return nil
	}
	fmt.Fprintln(stdout, "sessions signed in with the old code have ended on every instance")
	return nil
}

// announceEndedSessions tells every running instance through Redis that
// id's sessions ended, as the admin page does, so their sockets close
// and their caches forget id now rather than when the entry expires.
func announceEndedSessions(ctx context.Context, cfg *config, id string) error {
	opts, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return fmt.Errorf("REDIS_URL: %w", err)
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	logger := slog.New(slog.DiscardHandler)
	live := hub.New(livehub.Rules(hub.Config{}), hub.NewRedisBroker(rdb, cfg.RedisPrefix, cfg.HubHistory), nil, logger)
	return live.EndSessions(ctx, id)
}

// openStore opens the configured database for a one-off command.
func openStore(ctx context.Context, cfg *config) (*store.Store, error) {
	logger, err := newLogger(cfg, os.Stderr)
	if err != nil {
		return nil, err
	}
	st, _, err := database.Open(ctx, database.Config{URI: cfg.MongoURI, DataDir: cfg.DataDir, Database: cfg.Database, Sync: cfg.DBSync}, logger)
	return st, err
}
