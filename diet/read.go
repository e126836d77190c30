package diet

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reading is what Read found in a text.
type Reading struct {
	// Tags are the canonical tags the text names.
	Tags []string `json:"tags"`
	// Unclear are the parts of the text (as written) with words Read did
	// not understand.
	Unclear []string `json:"unclear"`
}

// token is one word of a text: its lower-case and folded forms, where it
// is in the text and which part (clause) of the text it belongs to.
type token struct {
	word, folded string
	start, end   int
	part         int
}

// Read finds the needs a free text names: allergens, diets, not drinking
// alcohol and why (pregnant, breastfeeding, a medicine that forbids it,
// driving), in English, Swedish, German, French, Spanish, Portuguese,
// Danish, Norwegian, Finnish, Italian and Dutch, with or without
// diacritics, tolerating a typo in longer words and the usual phrases
// ("designated driver", "not drinking tonight", "dairy-free",
// "laktosintolerant", "senza glutine"). A reason for not drinking comes
// with "alcohol-free" beside it. The text is read in parts (split at
// punctuation and at "and"): a part with a word Read does not understand
// is returned in Unclear as written, so a person's need is never silently
// lost.
func Read(text string) Reading {
	toks := tokenize(text)
	var r Reading
	for len(toks) > 0 {
		n := 1
		for n < len(toks) && toks[n].part == toks[0].part {
			n++
		}
		tags, understood := readPart(toks[:n])
		r.Tags = appendNew(r.Tags, tags...)
		if !understood {
			part := strings.TrimSpace(text[toks[0].start:toks[n-1].end])
			r.Unclear = appendNew(r.Unclear, truncate(part, maxPart))
		}
		toks = toks[n:]
	}
	r.Tags = withImplied(r.Tags)
	slices.SortFunc(r.Tags, tagOrder)
	return r
}

// tokenize splits text into words, numbering the parts: punctuation other
// than a word's own apostrophe or dash, and conjunctions, start a new part.
func tokenize(text string) []token {
	var toks []token
	part, start := 0, -1
	brk := false
	flush := func(end int) {
		if start < 0 {
			return
		}
		s := start
		start = -1
		w := strings.ToLower(text[s:end])
		if conjunctions[w] || conjunctions[fold(w)] {
			part++
			return
		}
		if brk {
			part++
			brk = false
		}
		toks = append(toks, token{word: w, folded: fold(w), start: s, end: end, part: part})
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		switch {
		case r == '-' || r == '\'' || r == '’' || unicode.IsSpace(r) || r == '"' || r == '*':
		default:
			// Any other punctuation ends the part (but not before the
			// first word of the text).
			if len(toks) > 0 {
				brk = true
			}
		}
	}
	flush(len(text))
	return toks
}

// readPart reads one part: the tags it names, and whether every word was
// understood.
func readPart(toks []token) ([]string, bool) {
	var tags []string
	understood := true
	known := make([]bool, len(toks))
	// Phrases first, so their words are not read one by one.
	for i := range toks {
		for n := 3; n >= 2; n-- {
			if i+n > len(toks) || known[i] {
				continue
			}
			words := make([]string, n)
			for j := range n {
				words[j] = toks[i+j].folded
			}
			if t, ok := needPhrases[strings.Join(words, " ")]; ok {
				tags = appendNew(tags, t...)
				for j := range n {
					known[i+j] = true
				}
			}
		}
	}
	finnish := slices.ContainsFunc(toks, func(tk token) bool { return finnishOnly[tk.folded] })
	for i, tk := range toks {
		if known[i] {
			continue
		}
		switch {
		case drinkingWords[tk.word] || drinkingWords[tk.folded]:
			// "not drinking", "je ne bois pas", "jag dricker inte".
			// Without a negation the verb says nothing of a need: "tomo
			// antibióticos" (I take antibiotics).
			if negatedNear(toks, i, finnish) {
				tags = appendNew(tags, AlcoholFree)
			}
			known[i] = true
		case negation(tk, finnish):
			known[i] = true
		case tk.folded == "soy" && i+1 < len(toks) && spanishSoy[toks[i+1].folded]:
			// Spanish "soy vegano": "I am", not soy.
			known[i] = true
		default:
			if t, ok := lookup(tk); ok {
				tags = appendNew(tags, t...)
				known[i] = true
			}
		}
	}
	for i, tk := range toks {
		if !known[i] && !ignorable(tk) {
			understood = false
		}
	}
	return tags, understood
}

// negatedNear reports whether a negation stands within three words of
// toks[i], before or after (Swedish and German put it after the verb).
func negatedNear(toks []token, i int, finnish bool) bool {
	for j := max(0, i-3); j <= min(len(toks)-1, i+3); j++ {
		if j != i && negation(toks[j], finnish) {
			return true
		}
	}
	return false
}

// negation reports whether tk is a negation. "ei" is Finnish for "no" in
// a Finnish part ("ei alkoholia") and the German or Dutch egg elsewhere
// ("kein Ei", "geen ei"): read as the egg, the Finnish "no alcohol" had
// left the alcohol on the menu.
func negation(tk token, finnish bool) bool {
	return negations[tk.word] || negations[tk.folded] || finnish && tk.folded == "ei"
}

// finnishOnly are the Finnish words that are no word of another language
// Read reads: one of them makes a part Finnish.
var finnishOnly = func() map[string]bool {
	others := map[string]bool{}
	for _, m := range []map[string]string{westernNeeds, danishNeeds, norwegianNeeds, italianNeeds, dutchNeeds} {
		for w := range lexicon([]map[string]string{m}, nil) {
			others[fold(w)] = true
		}
	}
	for _, fs := range []string{danishFillers, norwegianFillers, italianFillers, dutchFillers} {
		for w := range set(fs) {
			others[fold(w)] = true
		}
	}
	out := map[string]bool{}
	for w := range finnishWords {
		if len(w) > 2 && !others[w] && !fillerWords[w] && !negations[w] {
			out[w] = true
		}
	}
	return out
}()

// ignorable words carry nothing: numbers and one- or two-letter pieces
// such as the "m" of "I'm" or the "j" of "j'ai".
func ignorable(tk token) bool {
	if len([]rune(tk.word)) <= 2 {
		return true
	}
	return strings.IndexFunc(tk.word, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// lookup reads one word: the tags it names (none for a filler word) and
// whether it was understood at all.
func lookup(tk token) ([]string, bool) {
	if t, ok := needWords[tk.word]; ok {
		return t, true
	}
	if fillerWords[tk.word] {
		return nil, true
	}
	if t, ok := foldedNeeds[tk.folded]; ok {
		return t, true
	}
	if foldedFillers[tk.folded] {
		return nil, true
	}
	if t, ok := plural(tk.folded); ok {
		return t, true
	}
	if t, ok := compound(tk.folded); ok {
		return t, true
	}
	return nearest(tk.folded)
}

// plural reads "crabs" as "crab" and "clams" as "clam".
func plural(w string) ([]string, bool) {
	if len(w) < 4 || !strings.HasSuffix(w, "s") {
		return nil, false
	}
	t, ok := foldedNeeds[w[:len(w)-1]]
	return t, ok
}

// compound reads one-word needs made of a need and an ending:
// "nötallergi", "glutenfrei", "laktosintolerant", "jordnötsallergi".
func compound(w string) ([]string, bool) {
	for _, end := range foldedEnds {
		head, ok := strings.CutSuffix(w, end)
		if !ok || len(head) < 2 {
			continue
		}
		heads := []string{head, strings.TrimRight(head, "s-"), strings.TrimSuffix(head, "e")}
		for _, h := range heads {
			if t, ok := compoundHeads[h]; ok {
				return t, true
			}
		}
		if t, ok := nearest(head); ok && len(t) > 0 {
			return t, true
		}
		// "allergic" and "free" alone are filler words; with an unknown
		// head ("kiwiallergi") the word is not understood.
		return nil, false
	}
	return nil, false
}

// nearest tolerates one typo (a letter added, missing, changed, or two
// swapped) in words of five letters or more, against need words of six
// letters or more (shorter words differ by one letter too often: "nuevo"
// and "huevo"), then against the filler words.
func nearest(w string) ([]string, bool) {
	rw := []rune(w)
	if len(rw) < 5 {
		return nil, false
	}
	// A misspelt negation ("withou", "zondr") is a negation, never the
	// need word it happens to be one letter from.
	if _, ok := fuzzyNegations.nearest(rw); ok {
		return nil, true
	}
	if k, ok := fuzzyNeeds.nearest(rw); ok {
		return foldedNeeds[k], true
	}
	if _, ok := fuzzyFillers.nearest(rw); ok {
		return nil, true
	}
	return nil, false
}

// fuzzyIndex holds words by their length in runes: a word one edit from
// w is one rune shorter, as long, or one longer, so only those are
// compared (the reader meets many words it does not know; the RSVP
// preview's worst case is a text of nothing else).
type fuzzyIndex map[int][][]rune

func newFuzzyIndex(words []string) fuzzyIndex {
	ix := fuzzyIndex{}
	slices.Sort(words)
	for _, w := range words {
		r := []rune(w)
		ix[len(r)] = append(ix[len(r)], r)
	}
	return ix
}

// nearest returns the first word in alphabetical order within one edit of
// w, so the answer does not depend on map order.
func (ix fuzzyIndex) nearest(w []rune) (string, bool) {
	best := ""
	for n := len(w) - 1; n <= len(w)+1; n++ {
		for _, k := range ix[n] {
			if withinOne(w, k) {
				if s := string(k); best == "" || s < best {
					best = s
				}
				break
			}
		}
	}
	return best, best != ""
}

// withinOne reports whether a and b are at most one edit apart (insert,
// delete, substitute, or swap of neighbours).
func withinOne(a, b []rune) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch len(b) - len(a) {
	case 0:
		diff := -1
		for i := range a {
			if a[i] == b[i] {
				continue
			}
			if diff >= 0 {
				// A second difference: only a swap of neighbours is one edit.
				return diff == i-1 && a[diff] == b[i] && a[i] == b[diff] && string(a[i+1:]) == string(b[i+1:])
			}
			diff = i
		}
		return true
	case 1:
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		return string(a[i:]) == string(b[i+1:])
	}
	return false
}

// fold lower-cases s and drops its diacritics, so "Nötallergi",
// "notallergi" and "NÖTALLERGI" read the same.
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if f, ok := plainLetters[r]; ok {
			b.WriteString(f)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

var plainLetters = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'æ': "ae",
	'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i",
	'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ø': "o", 'œ': "oe",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ý': "y", 'ÿ': "y", 'ß': "ss",
}

// The folded word lists, built once from the lists as written. A folded
// need word that folds onto a filler word ("nöt" onto "not") is left out:
// written without its diacritics it is the filler.
var (
	foldedNeeds, foldedFillers = foldLists()
	fuzzyNeeds, fuzzyFillers   = fuzzyKeys()
	fuzzyNegations             = negationKeys()
	foldedEnds                 = foldEnds()
	// compoundHeads are every need word folded, with no exception: in
	// "notallergi" the "not" is the head of a compound, not a negation.
	compoundHeads = foldAll()
)

func foldAll() map[string][]string {
	out := map[string][]string{}
	for w, t := range needWords {
		out[fold(w)] = appendNew(out[fold(w)], t...)
	}
	return out
}

func foldLists() (map[string][]string, map[string]bool) {
	fillers := map[string]bool{}
	for w := range fillerWords {
		fillers[fold(w)] = true
	}
	for w := range negations {
		fillers[fold(w)] = true
	}
	needs := map[string][]string{}
	for w, t := range needWords {
		f := fold(w)
		if f != w && (fillers[f] || negations[f]) {
			continue
		}
		needs[f] = appendNew(needs[f], t...)
	}
	return needs, fillers
}

func fuzzyKeys() (needs, fillers fuzzyIndex) {
	var n, f []string
	for w := range foldedNeeds {
		if len([]rune(w)) >= 6 {
			n = append(n, w)
		}
	}
	for w := range foldedFillers {
		if len([]rune(w)) >= 6 {
			f = append(f, w)
		}
	}
	return newFuzzyIndex(n), newFuzzyIndex(f)
}

func negationKeys() fuzzyIndex {
	var out []string
	for w := range negations {
		if f := fold(w); len([]rune(f)) >= 5 {
			out = appendNew(out, f)
		}
	}
	return newFuzzyIndex(out)
}

// foldEnds lists the compound endings, longest first, so "allergie" is
// tried before "allergi".
func foldEnds() []string {
	var out []string
	for _, e := range compoundEnds {
		out = appendNew(out, fold(e))
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}
