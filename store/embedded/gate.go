package embedded

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"golang.org/x/sync/semaphore"
)

// The embedded FerretDB (v1.24) opens at most sqlitePool SQLite
// connections per database and never gives up waiting for one. A command
// takes them as it goes and gives them back only at its end: an update
// holds the read of each of its statements until the command ends (a
// defer inside a loop of its handler) and needs one more for each write;
// a find holds one until its cursor is drained or killed. Commands that
// together need more than the pool each wait for a connection another
// holds, forever, and every later call of every client waits behind them
// (docs/DESIGN.md, "What the embedded database cannot do").
//
// So every client reaches FerretDB through a gate in this process that
// admits a command only when the connections it can hold at once fit
// beside those of the commands and cursors already admitted. Admitted
// commands can then always finish; the rest wait their turn, in order, or
// are answered "busy" after gateWait, and an update that could never fit
// is refused at once with a message saying what to do.
const (
	sqlitePool = 100
	// gateCapacity leaves a few connections for FerretDB's own
	// bookkeeping, which it does outside any command.
	gateCapacity = sqlitePool - 4
	// gateWait bounds the wait for room: a command that waited this long
	// is answered with MaxTimeMSExpired (a timeout the driver and the
	// store recognise) rather than run long after its caller gave up.
	gateWait = 30 * time.Second
)

// Wire protocol op codes and flags (MongoDB's OP_MSG, OP_QUERY, OP_REPLY).
const (
	opReply      = 1
	opQuery      = 2004
	opMsg        = 2013
	msgHeaderLen = 16
	// moreToCome on a request: no reply follows; on a reply: another
	// reply follows without a request.
	flagMoreToCome = 1 << 1
	flagChecksum   = 1 << 0
	// maxMessage is MongoDB's own limit (48 MB), which FerretDB keeps.
	maxMessage = 48 << 20
)

// Server error codes the gate answers with.
const (
	codeBadValue         = 2
	codeMaxTimeMSExpired = 50
)

// GateStats are the gate's counters, for metrics and tests.
type GateStats struct {
	// InUse is the SQLite connections admitted commands and open cursors
	// may hold now, over every database.
	InUse int64
	// Waiting is the commands waiting for room now.
	Waiting int64
	// Refused counts updates refused for having more statements than the
	// database can finish.
	Refused int64
	// TimedOut counts commands answered busy after gateWait.
	TimedOut int64
}

// gate admits commands to FerretDB: one weighted semaphore per database,
// since each database is a SQLite file with a pool of its own.
type gate struct {
	capacity  int64
	maxUpdate int // statements; more is refused
	wait      time.Duration
	log       *slog.Logger
	mu        sync.Mutex
	dbs       map[string]*dbGate
	// cursors are the open cursors the gate saw opened, with their
	// database and the relay that opened them: a driver may fetch from or
	// kill a cursor on any of its connections, but FerretDB closes a
	// cursor with the connection that opened it.
	cursors  map[int64]openCursor
	inUse    atomic.Int64
	waiting  atomic.Int64
	refused  atomic.Int64
	timedOut atomic.Int64
}

func newGate(maxUpdate int, log *slog.Logger) *gate {
	if maxUpdate <= 0 || maxUpdate > gateCapacity-1 {
		maxUpdate = gateCapacity - 1
	}
	return &gate{capacity: gateCapacity, maxUpdate: maxUpdate, wait: gateWait, log: log,
		dbs: map[string]*dbGate{}, cursors: map[int64]openCursor{}}
}

type openCursor struct {
	db    string
	owner *int // the relay that opened it, by identity
}

// cursorOpened keeps one unit of db's room for cursor id.
func (g *gate) cursorOpened(id int64, db string, owner *int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cursors[id] = openCursor{db: db, owner: owner}
}

// cursorsClosed gives back the room of the cursors ids that were open.
func (g *gate) cursorsClosed(ids ...int64) {
	var gone []openCursor
	g.mu.Lock()
	for _, id := range ids {
		if c, ok := g.cursors[id]; ok {
			delete(g.cursors, id)
			gone = append(gone, c)
		}
	}
	g.mu.Unlock()
	for _, c := range gone {
		g.done(admission{db: c.db, room: 1})
	}
}

// ownerGone gives back the room of every cursor owner opened.
func (g *gate) ownerGone(owner *int) {
	var ids []int64
	g.mu.Lock()
	for id, c := range g.cursors {
		if c.owner == owner {
			ids = append(ids, id)
		}
	}
	g.mu.Unlock()
	g.cursorsClosed(ids...)
}

// dbGate is one database's room and its turn to write.
type dbGate struct {
	room *semaphore.Weighted
	// turn lets one write at a time reach the database: SQLite has one
	// writer, and writers that collide in it are put to sleep by its busy
	// handler or refused (SQLITE_BUSY), where waiting in line here costs
	// neither.
	turn *semaphore.Weighted
}

func (g *gate) db(name string) *dbGate {
	g.mu.Lock()
	defer g.mu.Unlock()
	d := g.dbs[name]
	if d == nil {
		d = &dbGate{room: semaphore.NewWeighted(g.capacity), turn: semaphore.NewWeighted(1)}
		g.dbs[name] = d
	}
	return d
}

// admission is what an admitted command holds until it is answered.
type admission struct {
	db   string
	room int64
	turn bool
}

// admit waits, in order and at most g.wait, for c's turn to write (when it
// writes) and then for its room. The turn comes first and holds nothing
// while it waits, so a writer never sits on room another writer needs.
func (g *gate) admit(ctx context.Context, c command) (admission, error) {
	a := admission{db: c.db, room: c.weight(), turn: c.writes()}
	if a.room == 0 && !a.turn {
		return a, nil
	}
	g.waiting.Add(1)
	defer g.waiting.Add(-1)
	ctx, cancel := context.WithTimeout(ctx, g.wait)
	defer cancel()
	d := g.db(c.db)
	if a.turn {
		if err := d.turn.Acquire(ctx, 1); err != nil {
			return admission{}, err
		}
	}
	if err := d.room.Acquire(ctx, a.room); err != nil {
		if a.turn {
			d.turn.Release(1)
		}
		return admission{}, err
	}
	g.inUse.Add(a.room)
	return a, nil
}

// done gives back what a holds.
func (g *gate) done(a admission) {
	if a.room == 0 && !a.turn {
		return
	}
	d := g.db(a.db)
	if a.room > 0 {
		g.inUse.Add(-a.room)
		d.room.Release(a.room)
	}
	if a.turn {
		d.turn.Release(1)
	}
}

func (g *gate) stats() GateStats {
	return GateStats{InUse: g.inUse.Load(), Waiting: g.waiting.Load(), Refused: g.refused.Load(), TimedOut: g.timedOut.Load()}
}

// command is what the gate reads of a request.
type command struct {
	name       string
	db         string
	statements int     // of an update
	cursors    []int64 // of a killCursors
	moreToCome bool
}

// weight is how many SQLite connections c may hold at once on FerretDB
// v1's SQLite backend (its handler code, read for this): an update one
// per statement plus one for the write in progress; a command that never
// reaches SQLite none; a getMore none beyond its cursor's; anything else
// at most a read and a write.
func (c command) weight() int64 {
	switch c.name {
	case "update":
		return int64(c.statements) + 1
	case "hello", "isMaster", "ismaster", "ping", "buildInfo", "buildinfo", "endSessions",
		"getMore", "killCursors", "whatsmyuri", "getParameter", "connectionStatus",
		"saslStart", "saslContinue", "logout", "hostInfo", "listCommands", "getCmdLineOpts",
		"getLog", "getFreeMonitoringStatus":
		return 0
	}
	return 2
}

// writes says whether c writes to the database.
func (c command) writes() bool {
	switch c.name {
	case "insert", "update", "delete", "findAndModify", "create", "createIndexes", "drop",
		"dropDatabase", "dropIndexes", "renameCollection", "collMod", "compact":
		return true
	}
	return false
}

// opensCursor says whether a reply to c may leave a cursor open, holding a
// SQLite read until it is drained, killed or its connection closes.
func (c command) opensCursor() bool {
	switch c.name {
	case "find", "aggregate", "listCollections", "listIndexes":
		return true
	}
	return false
}

// parseCommand reads the command of a whole wire message (header
// included). It never fails: what it cannot read is weighed as an
// ordinary command and left for FerretDB to answer.
func parseCommand(msg []byte) command {
	var c command
	if len(msg) < msgHeaderLen {
		return c
	}
	switch binary.LittleEndian.Uint32(msg[12:16]) {
	case opQuery:
		// Only the drivers' first hello comes as OP_QUERY, and FerretDB
		// answers nothing else in it.
		c.name = "hello"
		return c
	case opMsg:
	default:
		return c
	}
	body := msg[msgHeaderLen:]
	if len(body) < 4 {
		return c
	}
	flags := binary.LittleEndian.Uint32(body)
	c.moreToCome = flags&flagMoreToCome != 0
	body = body[4:]
	if flags&flagChecksum != 0 && len(body) >= 4 {
		body = body[:len(body)-4]
	}
	var sequences = map[string]int{}
	var doc bsoncore.Document
	for len(body) > 0 {
		kind := body[0]
		body = body[1:]
		if len(body) < 4 {
			return c
		}
		size := int(binary.LittleEndian.Uint32(body))
		if size < 5 || size > len(body) {
			return c
		}
		switch kind {
		case 0:
			doc = bsoncore.Document(body[:size])
		case 1:
			sequences[sequenceID(body[4:size])] = countDocuments(body[4:size])
		}
		body = body[size:]
	}
	if doc == nil {
		return c
	}
	first, err := doc.IndexErr(0)
	if err != nil {
		return c
	}
	c.name = first.Key()
	c.db, _ = doc.Lookup("$db").StringValueOK()
	switch c.name {
	case "update":
		c.statements = sequences["updates"]
		if arr, ok := doc.Lookup("updates").ArrayOK(); ok {
			vals, _ := arr.Values()
			c.statements += len(vals)
		}
	case "killCursors":
		if arr, ok := doc.Lookup("cursors").ArrayOK(); ok {
			vals, _ := arr.Values()
			for _, v := range vals {
				if id, ok := v.AsInt64OK(); ok {
					c.cursors = append(c.cursors, id)
				}
			}
		}
	}
	return c
}

// sequenceID is the identifier of an OP_MSG document sequence (a
// C string), given the sequence without its size.
func sequenceID(seq []byte) string {
	for i, b := range seq {
		if b == 0 {
			return string(seq[:i])
		}
	}
	return ""
}

// countDocuments counts the documents of a sequence given without its
// size: after the identifier, BSON documents back to back.
func countDocuments(seq []byte) int {
	i := len(sequenceID(seq)) + 1
	n := 0
	for i+4 <= len(seq) {
		size := int(binary.LittleEndian.Uint32(seq[i:]))
		if size < 5 {
			break
		}
		i += size
		n++
	}
	return n
}

// replyCursor reads the cursor id of a reply: 0 when the reply leaves no
// cursor open (or is not a cursor's).
func replyCursor(msg []byte) int64 {
	if len(msg) < msgHeaderLen+5 || binary.LittleEndian.Uint32(msg[12:16]) != opMsg {
		return 0
	}
	body := msg[msgHeaderLen+4:]
	if body[0] != 0 || len(body) < 5 {
		return 0
	}
	size := int(binary.LittleEndian.Uint32(body[1:]))
	if size < 5 || size > len(body)-1 {
		return 0
	}
	id, _ := bsoncore.Document(body[1:1+size]).Lookup("cursor", "id").AsInt64OK()
	return id
}

// replyFlags reads a reply's OP_MSG flags (0 for other op codes).
func replyFlags(msg []byte) uint32 {
	if len(msg) < msgHeaderLen+4 || binary.LittleEndian.Uint32(msg[12:16]) != opMsg {
		return 0
	}
	return binary.LittleEndian.Uint32(msg[msgHeaderLen:])
}

// errorReply is an OP_MSG answer to request (a whole message) failing with
// code and message, as a server would send it.
func errorReply(request []byte, code int32, codeName, message string) []byte {
	doc := bsoncore.NewDocumentBuilder().
		AppendDouble("ok", 0).
		AppendString("errmsg", message).
		AppendInt32("code", code).
		AppendString("codeName", codeName).
		Build()
	msg := make([]byte, msgHeaderLen+4+1, msgHeaderLen+4+1+len(doc))
	msg = append(msg, doc...)
	binary.LittleEndian.PutUint32(msg[0:], uint32(len(msg)))
	binary.LittleEndian.PutUint32(msg[4:], 0) // the request id of a reply is unused
	copy(msg[8:12], request[4:8])             // responseTo: the request's id
	binary.LittleEndian.PutUint32(msg[12:], opMsg)
	// flags 0 and section kind 0 are the zero bytes already there.
	return msg
}

// readMessage reads one whole wire message into buf (grown as needed).
func readMessage(r *bufio.Reader, buf []byte) ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return buf, err
	}
	n := int(binary.LittleEndian.Uint32(header[:]))
	if n < msgHeaderLen || n > maxMessage {
		return buf, fmt.Errorf("wire message of %d bytes", n)
	}
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	copy(buf, header[:])
	_, err := io.ReadFull(r, buf[4:])
	return buf, err
}

// serveGate accepts clients on ln and relays each to FerretDB at inner
// through the gate, until ln is closed.
func (g *gate) serve(ctx context.Context, ln net.Listener, inner string) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		client, err := ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				g.log.WarnContext(ctx, "embedded database: accept", "err", err)
			}
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.relay(ctx, client, inner)
		}()
	}
}

// relay carries one client connection's requests and replies in turn,
// admitting each request through the gate. The cursors it saw opened keep
// their connection's worth of room until drained, killed, or this client
// goes away (FerretDB closes a connection's cursors with it).
func (g *gate) relay(ctx context.Context, client net.Conn, inner string) {
	defer client.Close()
	var d net.Dialer
	server, err := d.DialContext(ctx, "tcp", inner)
	if err != nil {
		g.log.WarnContext(ctx, "embedded database: dial", "err", err)
		return
	}
	defer server.Close()
	stop := context.AfterFunc(ctx, func() { client.Close(); server.Close() })
	defer stop()

	cr, sr := bufio.NewReader(client), bufio.NewReader(server)
	owner := new(int)
	var held []admission // of requests not yet answered
	settle := func() {
		for _, a := range held {
			g.done(a)
		}
		held = held[:0]
	}
	defer func() {
		settle()
		g.ownerGone(owner)
	}()
	var req, rep []byte
	for {
		if req, err = readMessage(cr, req); err != nil {
			return
		}
		c := parseCommand(req)
		if c.name == "update" && c.statements > g.maxUpdate {
			g.refused.Add(1)
			msg := fmt.Sprintf("barhub: an update of %d statements cannot finish on the embedded database, which runs at most %d in one command: send it in parts", c.statements, g.maxUpdate)
			g.log.WarnContext(ctx, "embedded database: update refused", "statements", c.statements, "max", g.maxUpdate)
			if _, err := client.Write(errorReply(req, codeBadValue, "BadValue", msg)); err != nil {
				return
			}
			continue
		}
		a, err := g.admit(ctx, c)
		if err != nil {
			g.timedOut.Add(1)
			msg := fmt.Sprintf("barhub: the embedded database is busy: %s waited %s for room to run; try again", c.name, g.wait)
			g.log.WarnContext(ctx, "embedded database: command waited too long", "command", c.name, "room", c.weight())
			if _, err := client.Write(errorReply(req, codeMaxTimeMSExpired, "MaxTimeMSExpired", msg)); err != nil {
				return
			}
			continue
		}
		held = append(held, a)
		if _, err := server.Write(req); err != nil {
			return
		}
		if c.moreToCome {
			// No reply: FerretDB runs a connection's requests in turn, so
			// the room is given back with the next reply.
			continue
		}
		for {
			if rep, err = readMessage(sr, rep); err != nil {
				return
			}
			if replyFlags(rep)&flagMoreToCome == 0 {
				break
			}
			if _, err := client.Write(rep); err != nil {
				return
			}
		}
		// The command is over: its room is given back before the client
		// hears so, so a client that counts on it finds it free.
		id := replyCursor(rep)
		if last := &held[len(held)-1]; c.opensCursor() && id != 0 && last.room > 0 {
			// The cursor keeps its read: one unit stays admitted.
			g.cursorOpened(id, c.db, owner)
			last.room--
		}
		if c.name == "getMore" && id == 0 {
			// Drained, or gone: its reply names no cursor either way.
			g.cursorsClosed(getMoreCursor(req))
		}
		g.cursorsClosed(c.cursors...)
		settle()
		if _, err := client.Write(rep); err != nil {
			return
		}
		// A big import or answer is rare: its buffer is not kept for the
		// life of a pooled connection.
		if cap(req) > keepBuffer {
			req = nil
		}
		if cap(rep) > keepBuffer {
			rep = nil
		}
	}
}

// keepBuffer is the largest message buffer a relay keeps between messages.
const keepBuffer = 256 << 10

// getMoreCursor reads the cursor id a getMore request names.
func getMoreCursor(msg []byte) int64 {
	if len(msg) < msgHeaderLen+5 {
		return 0
	}
	body := msg[msgHeaderLen+4:]
	if body[0] != 0 || len(body) < 5 {
		return 0
	}
	size := int(binary.LittleEndian.Uint32(body[1:]))
	if size < 5 || size > len(body)-1 {
		return 0
	}
	id, _ := bsoncore.Document(body[1 : 1+size]).Lookup("getMore").AsInt64OK()
	return id
}
