package embedded

import (
	"encoding/binary"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// opMsgFor builds an OP_MSG request: a body document and, optionally, one
// document sequence, as drivers send bulk writes.
func opMsgFor(flags uint32, body bsoncore.Document, seqID string, seq ...bsoncore.Document) []byte {
	msg := make([]byte, msgHeaderLen+4)
	binary.LittleEndian.PutUint32(msg[4:], 7) // request id
	binary.LittleEndian.PutUint32(msg[12:], opMsg)
	binary.LittleEndian.PutUint32(msg[16:], flags)
	msg = append(msg, 0)
	msg = append(msg, body...)
	if seqID != "" {
		section := binary.LittleEndian.AppendUint32(nil, 0)
		section = append(section, seqID...)
		section = append(section, 0)
		for _, d := range seq {
			section = append(section, d...)
		}
		binary.LittleEndian.PutUint32(section, uint32(len(section)))
		msg = append(msg, 1)
		msg = append(msg, section...)
	}
	binary.LittleEndian.PutUint32(msg, uint32(len(msg)))
	return msg
}

func TestParseCommand(t *testing.T) {
	stmt := bsoncore.NewDocumentBuilder().AppendString("q", "x").Build()
	arr := bsoncore.NewArrayBuilder().AppendDocument(stmt).AppendDocument(stmt).AppendDocument(stmt).Build()
	ids := bsoncore.NewArrayBuilder().AppendInt64(11).AppendInt64(12).Build()
	doc := func(name string) *bsoncore.DocumentBuilder {
		return bsoncore.NewDocumentBuilder().AppendString(name, "guests").AppendString("$db", "party")
	}
	for _, tc := range []struct {
		name   string
		msg    []byte
		want   command
		weight int64
	}{
		{"update as a sequence", opMsgFor(0, doc("update").Build(), "updates", stmt, stmt, stmt, stmt, stmt), command{name: "update", db: "party", statements: 5}, 6},
		{"update as an array", opMsgFor(0, doc("update").AppendArray("updates", arr).Build(), ""), command{name: "update", db: "party", statements: 3}, 4},
		{"find", opMsgFor(0, doc("find").Build(), ""), command{name: "find", db: "party"}, 2},
		{"insert of many", opMsgFor(0, doc("insert").Build(), "documents", stmt, stmt), command{name: "insert", db: "party"}, 2},
		{"hello", opMsgFor(0, bsoncore.NewDocumentBuilder().AppendInt32("hello", 1).AppendString("$db", "admin").Build(), ""), command{name: "hello", db: "admin"}, 0},
		{"killCursors", opMsgFor(0, doc("killCursors").AppendArray("cursors", ids).Build(), ""), command{name: "killCursors", db: "party", cursors: []int64{11, 12}}, 0},
		{"an unacknowledged write", opMsgFor(flagMoreToCome, doc("delete").Build(), ""), command{name: "delete", db: "party", moreToCome: true}, 2},
		{"nothing readable", []byte{1, 2, 3}, command{}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := parseCommand(tc.msg)
			if got.name != tc.want.name || got.db != tc.want.db || got.statements != tc.want.statements ||
				got.moreToCome != tc.want.moreToCome || !slices.Equal(got.cursors, tc.want.cursors) {
				t.Errorf("parseCommand = %+v, want %+v", got, tc.want)
			}
			if w := got.weight(); w != tc.weight {
				t.Errorf("weight = %d, want %d", w, tc.weight)
			}
		})
	}
}

// The gate reads every message any client sends; none may make it panic.
func FuzzParseCommand(f *testing.F) {
	stmt := bsoncore.NewDocumentBuilder().AppendString("q", "x").Build()
	f.Add(opMsgFor(0, bsoncore.NewDocumentBuilder().AppendString("update", "g").AppendString("$db", "d").Build(), "updates", stmt, stmt))
	f.Add(opMsgFor(flagChecksum, bsoncore.NewDocumentBuilder().AppendInt64("getMore", 3).Build(), ""))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, msg []byte) {
		c := parseCommand(msg)
		if c.statements < 0 {
			t.Errorf("statements = %d", c.statements)
		}
		replyCursor(msg)
		replyFlags(msg)
		getMoreCursor(msg)
		if len(msg) >= msgHeaderLen {
			errorReply(msg, codeBadValue, "BadValue", "x")
		}
	})
}
