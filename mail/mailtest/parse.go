package mailtest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
)

// Part is one leaf of a parsed message.
type Part struct {
	ContentType string
	// Params are the Content-Type parameters (charset, name, method …).
	Params      map[string]string
	Disposition string
	Filename    string
	ContentID   string
	Body        []byte
}

// Parsed is a message split into its headers and leaf parts.
type Parsed struct {
	Header mail.Header
	Parts  []Part
}

// Parse reads a message as a mail client would: headers decoded, the
// multipart tree walked, each leaf's transfer encoding undone.
func Parse(raw []byte) (*Parsed, error) {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parse message: %w", err)
	}
	p := &Parsed{Header: m.Header}
	if err := walk(&p.Parts, textproto(m.Header), m.Body); err != nil {
		return nil, err
	}
	return p, nil
}

type header interface{ Get(string) string }

type textproto mail.Header

func (h textproto) Get(k string) string { return mail.Header(h).Get(k) }

func walk(out *[]Part, h header, body io.Reader) error {
	ct := h.Get("Content-Type")
	if ct == "" {
		ct = "text/plain"
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Errorf("content type %q: %w", ct, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextRawPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return fmt.Errorf("multipart: %w", err)
			}
			if err := walk(out, part.Header, part); err != nil {
				return err
			}
		}
	}
	var r io.Reader = body
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, stripNewlines{body})
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("part %s: %w", mt, err)
	}
	p := Part{ContentType: mt, Params: params, Body: data, ContentID: strings.Trim(h.Get("Content-Id"), "<>")}
	if d := h.Get("Content-Disposition"); d != "" {
		disp, dp, err := mime.ParseMediaType(d)
		if err == nil {
			p.Disposition, p.Filename = disp, dp["filename"]
		}
	}
	if p.Filename == "" {
		p.Filename = params["name"]
	}
	*out = append(*out, p)
	return nil
}

// stripNewlines drops CR and LF, which base64 bodies wrap with.
type stripNewlines struct{ r io.Reader }

func (s stripNewlines) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	j := 0
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' {
			p[j] = c
			j++
		}
	}
	return j, err
}

// Part returns the first leaf of content type mt.
func (p *Parsed) Part(mt string) (Part, bool) {
	for _, x := range p.Parts {
		if x.ContentType == mt {
			return x, true
		}
	}
	return Part{}, false
}

// Subject is the decoded subject.
func (p *Parsed) Subject() string {
	s, err := new(mime.WordDecoder).DecodeHeader(p.Header.Get("Subject"))
	if err != nil {
		return p.Header.Get("Subject")
	}
	return s
}
